#!/usr/bin/env node
// A Condottiere bot in JavaScript. It plays one seat through the controller service of the
// seat's peer (condottiere.v1.Controller), read straight from proto/condottiere/v1/*.proto,
// and the game's part of the view from the .proto the game ships (games/condottiere/view.proto).
//
//   node bot.js DATA_DIR   -- DATA_DIR: the data directory of a peer started with --headless
//
// Strategy: in a battle, play the smallest mercenary while not ahead, else pass; keep a hand
// rather than discard it; anywhere else (where to fight, the Favor), the first legal move.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const CONTROLLER_VERSION = 3; // the version of the controller service this bot was written for
const GAME = 'condottiere'; // the game it plays: its part of the view, `view.detail`, is a CondottiereView
const CONSEQUENCES = new Set(['result', 'change']); // what a move decided and changed

const ROOT = path.join(__dirname, '..', '..');
const PROTO_DIR = process.env.CONDOTTIERE_PROTO || path.join(ROOT, 'proto');
const GAME_PROTO = process.env.CONDOTTIERE_GAME_PROTO || path.join(ROOT, 'games', 'condottiere', 'view.proto');
// Loaded together, so that `json: true` unpacks the google.protobuf.Any `view.detail` into the
// game's own message (its fields, and '@type' naming it).
const definition = protoLoader.loadSync(['condottiere/v1/controller.proto', GAME_PROTO], {
  includeDirs: [PROTO_DIR], keepCase: true, longs: Number, defaults: true, json: true,
});
const VIEW_TYPE = 'type.googleapis.com/condottiere.games.condottiere.v1.CondottiereView';
const { Controller } = grpc.loadPackageDefinition(definition).condottiere.v1;

const safeMove = (moves) => (moves.includes('pass') ? 'pass' : moves[0]);

function choose(seat, view) {
  const moves = view.legal_moves;
  if (view.phase === 'discard') return 'keep';
  if (view.phase !== 'battle') return moves[0];
  const { rows } = view.detail;
  const mine = rows[seat].strength;
  const best = Math.max(...rows.filter((_, other) => other !== seat).map((r) => r.strength));
  const value = (move) => Number(move.split(' ')[1]);
  const mercenaries = moves.filter((move) => /^play \d+$/.test(move));
  mercenaries.sort((a, b) => value(a) - value(b));
  return mine <= best && mercenaries.length > 0 ? mercenaries[0] : safeMove(moves);
}

// Why this bot cannot read `update`, or null when it can.
function unreadable(update) {
  if (update.controller !== CONTROLLER_VERSION) {
    const served = update.controller ? `version ${update.controller}` : 'a version before 2';
    return `the peer serves controller ${served}, and this bot reads version ` +
      `${CONTROLLER_VERSION} only: use a peer and a bot of the same release`;
  }
  if (update.game !== GAME) return `the table plays ${update.game}, and this bot plays ${GAME}`;
  if (update.view && update.view.detail && update.view.detail['@type'] !== VIEW_TYPE) {
    return `the view's part is a ${update.view.detail['@type']}, not ${VIEW_TYPE}`;
  }
  return null;
}

// An event in players' words; a move's result and changes are indented under the move.
const told = (event) => (CONSEQUENCES.has(event.kind) ? `  ${event.text}` : event.text);

function ending(outcome) {
  if (outcome.kind === 'draw') return `game over: a draw (${outcome.how})`;
  const seats = outcome.winners.map((seat) => `seat ${seat}`).join(', ');
  return `game over: winners ${seats} (${outcome.how})`;
}

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node bot.js DATA_DIR (the data directory of a peer started with --headless)');
  process.exit(2);
}
const read = (name) => {
  try {
    return fs.readFileSync(path.join(dataDir, name), 'utf8').trim();
  } catch {
    console.error(`no ${name} in ${dataDir}: is a peer running on that data directory?`);
    process.exit(2);
  }
};
const controller = new Controller(read('controller.address'), grpc.credentials.createInsecure());
const owner = new grpc.Metadata();
owner.add('authorization', `Bearer ${read('controller.token')}`);

function submit(move, fallback) {
  console.log(`> ${move}`);
  controller.Submit({ move }, owner, (error, reply) => {
    if (error) console.error(`submit failed: ${error.details}`);
    else if (!reply.applied) {
      console.log(`refused: ${reply.reason}`);
      if (fallback && fallback !== move) submit(fallback);
    }
  });
}

let last = null;
let answered = -1; // the table's step this bot last moved at
const updates = controller.Watch({}, owner);
updates.on('data', (update) => {
  const problem = unreadable(update);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  last = update;
  for (const event of update.events) console.log(told(event));
  if (update.my_turn && update.step !== answered) {
    answered = update.step;
    submit(choose(update.seat, update.view), safeMove(update.view.legal_moves));
  }
});
updates.on('end', () => {
  if (last && last.halt) console.log(`the table stopped: ${last.halt.detail}`);
  else if (last && last.outcome) console.log(ending(last.outcome));
  else console.log('the peer stopped before the game ended');
  controller.close();
});
updates.on('error', (error) => {
  console.error(`the controller service refused or failed: ${error.details}`);
  process.exit(1);
});
