"""The frozen test sets: sha256 over the digests of tasks ``test-0`` .. ``test-199``.

A test set is tied to its env version: a change to a generator, a sampler or the task
format that changes these digests must come with a new version of the id (``-v1``), so
that results on ``-v0`` stay comparable.
"""

TEST_SET_DIGESTS = {
    "ToolRetail-v0": "28aadf24b39968a2cdd966ca208e8cf1a4925cdaa32bf39a37d2c20868e1d8fe",
    "ToolAirline-v0": "e2358e0444959c215b34d8dad8b4be9dffaafaa5a753163aa646609b69886e7d",
    "ToolBanking-v0": "bc5dd3e13f9ba2d4f33b1c91eb3c258c606aa204ae1ab04e19a293ee7c3a5c87",
    "ToolCalendar-v0": "194bbca4e267352b45d3b2c1c142e91d992dfd26ab902a93f793bc70f4c7caee",
    "ToolCrm-v0": "4b0839afd07e214f32f78d4ec1ec0b6eaee9c58bf32cc60f163374fd89f8bfce",
    "ToolEmail-v0": "a230d61c4de8e5289e777ae46a101c2aeb95e0a6b311cf089a3a0bd3feb01b44",
    "ToolFilesystem-v0": "bb7ea2dd01b21523450977a4a5f2b8f3c15e7f18bdcc46036ac48338b0ca79f6",
    "ToolFoodDelivery-v0": "b79548508d4e11a55ce7dd0076e83a51bad237f33f1881a311b8229b0a7b171f",
    "ToolIssueTracker-v0": "2f39a37e84f84845dd9d6d67bf058e80a139c769d28f6b28de559645bff2b831",
    "ToolTeamChat-v0": "76004510e3d44c418232374aaa31bac5343405869e537604d0cedff7eff913fc",
}
