"""The frozen test sets: sha256 over the digests of tasks ``test-0`` .. ``test-199``.

A test set is tied to its env version: a change to a generator, a sampler or the task
format that changes these digests must come with a new version of the id (``-v1``), so
that results on ``-v0`` stay comparable.
"""

TEST_SET_DIGESTS = {
    "ToolRetail-v0": "e6315d6c1e31d65b10c024d7d93b6e70f2f55ddd0369f96ade6ba7c0989be28d",
    "ToolAirline-v0": "7592558d14b4c8c7ebcafe56a73624fddebf514b690c4e480517cfbacd03d6b4",
    "ToolBanking-v0": "e840b734f9f634995c3152239a685ffb39210b56d159233a124406fedce83b72",
    "ToolCalendar-v0": "645284174963ef8aba5acfc854dfc6bd6f8cb51fb0e1a180bc5fe780522368fe",
    "ToolCrm-v0": "df966ae6078bafc8feac5e68eb89224f7f66e14efba176f837b52532de8bcad8",
    "ToolEmail-v0": "7af6c9b28fb07ed0b3979ab8576b3caa43af0db69770f660f7f30468c8d12713",
    "ToolFilesystem-v0": "4a7431ea3156142c5f21ef89cd43d882a5be59a759299dadaad45ac25595c458",
    "ToolFoodDelivery-v0": "45798bdad7a738a244c750c647feef18e65c63ed91b31f48e50532acfbcd2067",
    "ToolIssueTracker-v0": "ab75ce3c0b490b784e2c9711cb118e4d5c3cbc707e3862d32e39d3631ee42ad6",
    "ToolTeamChat-v0": "a9a3ae40faaa34c0d975e60310031647fb08fc6124133cf88b6d74c8bd745967",
}
