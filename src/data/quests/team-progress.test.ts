import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readTeamProgress } from "./team-progress.js";

const worlds: string[] = [];
afterEach(() => {
  for (const folder of worlds.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A world folder holding the given files (world-relative path → SNBT text). */
const world = (files: Record<string, string>): string => {
  const folder = mkdtempSync(join(tmpdir(), "system-team-progress-"));
  worlds.push(folder);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
};

const PARTY = "3ae5b4a3-005f-477b-b3bd-154c23ac471c";
const OWNER = "b6ea2dcf-4399-4e61-ac44-dcefacfcb2f5";
const OFFICER = "950ba3d2-ae76-4777-97aa-76bb7d3b7772";
const YUE = "382e2778-22cc-3feb-91de-c07fb5f34302";

const playerTeam = (id: string, name: string, ranks: string): string =>
  `{\n\tid: "${id}"\n\ttype: "player"\n\tplayer_name: "${name}"\n\tranks: {${ranks}}\n\tproperties: {\n\t\t"ftbteams:display_name": "${name}"\n\t}\n}\n`;

const personalProgress = (id: string, task: string, reward: string): string =>
  `{\n\tversion: 1\n\tuuid: "${id.replaceAll("-", "")}"\n\tname: "stale"\n\tlock: false\n\trewards_blocked: false\n\ttask_progress: {\n\t\t${task}: 1\n\t}\n\tstarted: { }\n\tcompleted: { }\n\tclaimed_rewards: {\n\t\t"${id.replaceAll("-", "")}:${reward}": 1729000000000L\n\t}\n\tplayer_data: { }\n}\n`;

const partyProgress = `{
	version: 1
	uuid: "3ae5b4a3005f477bb3bd154c23ac471c"
	name: "Miners#3ae5b4a3"
	lock: false
	rewards_blocked: false
	task_progress: {
		609310B07E907A4F: 1
		045D1087A2692360: 100
	}
	started: {
		0000000000000001: 1729714160854L
		2C4299D33D419AA0: 1729714160854L
	}
	completed: {
		2C4299D33D419AA0: 1729714170000L
	}
	claimed_rewards: {
		"b6ea2dcf43994e61ac44dcefacfcb2f5:220C5F58574B7CB6": 1732847153933L
		"950ba3d2ae76477797aa76bb7d3b7772:3B1F0A8C4D2E6F70": 1732847160000L
		"00000000000000000000000000000000:5A6B7C8D9E0F1A2B": 1732847170000L
	}
	player_data: { }
}
`;

const partyTeam = `{
	id: "3ae5b4a3-005f-477b-b3bd-154c23ac471c"
	type: "party"
	owner: "b6ea2dcf-4399-4e61-ac44-dcefacfcb2f5"
	ranks: {
		950ba3d2-ae76-4777-97aa-76bb7d3b7772: "officer"
		b6ea2dcf-4399-4e61-ac44-dcefacfcb2f5: "owner"
	}
	properties: {
		"ftbteams:display_name": "Miners"
	}
}
`;

describe("readTeamProgress", () => {
  it("gives both members of a 1.21.1 party the party's progress, not their stale personal files", () => {
    const folder = world({
      [`ftbquests/${PARTY}.snbt`]: partyProgress,
      [`ftbquests/${OFFICER}.snbt`]: personalProgress(OFFICER, "7777777777777777", "1111111111111111"),
      [`ftbquests/${OWNER}.snbt`]: personalProgress(OWNER, "6666666666666666", "2222222222222222"),
      "ftbteams/ftbteams.snbt": '{\n\tid: "0f0e0d0c-0b0a-0908-0706-050403020100"\n\textra: { }\n}\n',
      [`ftbteams/party/${PARTY}.snbt`]: partyTeam,
      [`ftbteams/player/${OFFICER}.snbt`]: playerTeam(OFFICER, "Core_of_Oblivion", " "),
      [`ftbteams/player/${OWNER}.snbt`]: playerTeam(OWNER, "Party_Owner", " "),
    });
    const { players, errors } = readTeamProgress(folder);
    expect(errors).toEqual([]);
    expect([...players.keys()]).toEqual([OFFICER, OWNER]);
    const officer = players.get(OFFICER)!;
    expect(officer).toMatchObject({ playerId: OFFICER, name: "Core_of_Oblivion", team: PARTY });
    expect(officer.tasks).toEqual(
      new Map([
        ["609310B07E907A4F", 1],
        ["045D1087A2692360", 100],
      ]),
    );
    expect(officer.completed).toEqual(new Map([["2C4299D33D419AA0", 1729714170000]]));
    // each member keeps their own claims; the nil-uuid team reward counts for both
    expect(officer.claimedRewards).toEqual(
      new Map([
        ["5A6B7C8D9E0F1A2B", 1732847170000],
        ["3B1F0A8C4D2E6F70", 1732847160000],
      ]),
    );
    const owner = players.get(OWNER)!;
    expect(owner).toMatchObject({ name: "Party_Owner", team: PARTY });
    expect(owner.tasks).toEqual(officer.tasks);
    expect(owner.claimedRewards).toEqual(
      new Map([
        ["5A6B7C8D9E0F1A2B", 1732847170000],
        ["220C5F58574B7CB6", 1732847153933],
      ]),
    );
  });

  it("reads a 1.16 player team with the old top-level can_edit/auto_pin/pinned_quests keys", () => {
    const folder = world({
      [`ftbquests/${YUE}.snbt`]: `{
	version: 1
	uuid: "382e277822cc3feb91dec07fb5f34302"
	name: "Yue_plus"
	can_edit: false
	lock: false
	auto_pin: false
	task_progress: {
		62A152F7A8F03378: 1
	}
	started: {
		0000000000000001: 1692925802385L
	}
	completed: {
		62A152F7A8F03378: 1692925900000L
	}
	claimed_rewards: {
		"382e277822cc3feb91dec07fb5f34302:52E9520F3282BD04": 1692972462338L
	}
	pinned_quests: [ ]
}
`,
      [`ftbteams/player/${YUE}.snbt`]: `{
	id: "382e2778-22cc-3feb-91de-c07fb5f34302"
	type: "player"
	player_name: "Yue_plus"
	ranks: {
		382e2778-22cc-3feb-91de-c07fb5f34302: "owner"
	}
	properties: {
		"ftbteams:display_name": "Yue_plus"
		"ftbteams:color": "#59FFF5"
	}
}
`,
    });
    const { players, errors } = readTeamProgress(folder);
    expect(errors).toEqual([]);
    expect([...players.values()]).toEqual([
      {
        playerId: YUE,
        name: "Yue_plus",
        team: YUE,
        tasks: new Map([["62A152F7A8F03378", 1]]),
        completed: new Map([["62A152F7A8F03378", 1692925900000]]),
        claimedRewards: new Map([["52E9520F3282BD04", 1692972462338]]),
      },
    ]);
  });

  it("reads 1.21.5 team files whose id and owner are int arrays, and long task progress", () => {
    const folder = world({
      [`ftbquests/${PARTY}.snbt`]: partyProgress.replace("609310B07E907A4F: 1\n", "609310B07E907A4F: 1L\n"),
      [`ftbteams/party/${PARTY}.snbt`]: `{
	id: [I; 988132515, 6244219, -1279453876, 598492956]
	type: "party"
	owner: [I; -1226166833, 1134120545, -1404773137, -1392725259]
	ranks: {
		b6ea2dcf-4399-4e61-ac44-dcefacfcb2f5: "owner"
	}
}
`,
      [`ftbteams/player/${OWNER}.snbt`]: `{
	id: [I; -1226166833, 1134120545, -1404773137, -1392725259]
	type: "player"
	player_name: "Party_Owner"
	ranks: { }
}
`,
    });
    const { players, errors } = readTeamProgress(folder);
    expect(errors).toEqual([]);
    expect([...players.keys()]).toEqual([OWNER]);
    expect(players.get(OWNER)).toMatchObject({ name: "Party_Owner", team: PARTY });
    expect(players.get(OWNER)?.tasks.get("609310B07E907A4F")).toBe(1);
  });

  it("does not count ally or invited ranks as members, and ignores ftbteams/deleted/", () => {
    const folder = world({
      [`ftbquests/${PARTY}.snbt`]: partyProgress,
      [`ftbquests/${OFFICER}.snbt`]: personalProgress(OFFICER, "7777777777777777", "1111111111111111"),
      [`ftbteams/party/${PARTY}.snbt`]: partyTeam
        .replace('"officer"', '"ally"')
        .replace("\t}\n\tproperties", `\t\t${YUE}: "invited"\n\t}\n\tproperties`),
      [`ftbteams/player/${OFFICER}.snbt`]: playerTeam(
        OFFICER,
        "Core_of_Oblivion",
        `\n\t\t${OFFICER}: "owner"\n\t`,
      ),
      [`ftbteams/player/${OWNER}.snbt`]: playerTeam(OWNER, "Party_Owner", " "),
      "ftbteams/deleted/0c0b0a09-0807-0605-0403-020100000000.snbt": partyTeam
        .replace(PARTY, "0c0b0a09-0807-0605-0403-020100000000")
        .replace('"officer"', '"member"'),
    });
    const { players, errors } = readTeamProgress(folder);
    expect(errors).toEqual([]);
    // the invited player has no team of their own yet: not a player of this world
    expect([...players.keys()]).toEqual([OFFICER, OWNER]);
    const ally = players.get(OFFICER)!;
    expect(ally.team).toBe(OFFICER);
    expect(ally.tasks).toEqual(new Map([["7777777777777777", 1]]));
    expect(ally.claimedRewards).toEqual(new Map([["1111111111111111", 1729000000000]]));
    expect(players.get(OWNER)?.team).toBe(PARTY);
  });

  it("reports a corrupt file with its line while the other files still load", () => {
    const broken = personalProgress(OFFICER, "7777777777777777", "1111111111111111").replace(
      "7777777777777777: 1",
      "7777777777777777 1",
    );
    const folder = world({
      [`ftbquests/${OFFICER}.snbt`]: broken,
      [`ftbquests/${YUE}.snbt`]: personalProgress(YUE, "62A152F7A8F03378", "52E9520F3282BD04"),
      [`ftbteams/player/${OFFICER}.snbt`]: playerTeam(
        OFFICER,
        "Core_of_Oblivion",
        `\n\t\t${OFFICER}: "owner"\n\t`,
      ),
      [`ftbteams/player/${YUE}.snbt`]: `{\n\tid: "${YUE}"\n\ttype: "player"\n\tplayer_name: "Yue_plus"\n\tranks: {\n`,
    });
    const { players, errors } = readTeamProgress(folder);
    expect(errors).toEqual([
      { file: `ftbteams/player/${YUE}.snbt`, line: 5, message: "compound is not closed" },
      { file: `ftbquests/${OFFICER}.snbt`, line: 8, message: expect.stringContaining("expected ':'") },
    ]);
    // the officer is still known (by their team file) with no progress; Yue's progress loads without a team file
    expect(players.get(OFFICER)).toMatchObject({ name: "Core_of_Oblivion", team: OFFICER });
    expect(players.get(OFFICER)?.tasks.size).toBe(0);
    expect(players.get(YUE)?.tasks).toEqual(new Map([["62A152F7A8F03378", 1]]));
  });

  it("counts a progress file with no team file as its player's own team only when it names itself", () => {
    const orphanParty = partyProgress.replace(
      "b6ea2dcf43994e61ac44dcefacfcb2f5:",
      "950ba3d2ae76477797aa76bb7d3b7772:",
    );
    const withTeams = world({
      [`ftbquests/${PARTY}.snbt`]: orphanParty,
      [`ftbquests/${YUE}.snbt`]: personalProgress(YUE, "62A152F7A8F03378", "52E9520F3282BD04"),
      "ftbteams/ftbteams.snbt": "{\n\textra: { }\n}\n",
    });
    expect([...readTeamProgress(withTeams).players.keys()]).toEqual([YUE]);
    // a copy of ftbquests/ alone: every file is a player's own team
    const questsOnly = world({
      [`ftbquests/${YUE}.snbt`]: personalProgress(YUE, '"#62a152f7a8f03378"', "52e9520f"),
    });
    const yue = readTeamProgress(questsOnly).players.get(YUE);
    expect(yue).toEqual({
      playerId: YUE,
      team: YUE,
      tasks: new Map([["62A152F7A8F03378", 1]]),
      completed: new Map(),
      claimedRewards: new Map([["0000000052E9520F", 1729000000000]]),
    });
  });

  it("gives an empty result without errors for a world with neither folder", () => {
    expect(readTeamProgress(world({}))).toEqual({ players: new Map(), errors: [] });
    expect(readTeamProgress(join(tmpdir(), "system-no-such-world"))).toEqual({
      players: new Map(),
      errors: [],
    });
  });
});
