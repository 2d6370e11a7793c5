#!/usr/bin/env node
// A Condottieri Captains bot in JavaScript. It plays one seat through the controller service of
// the seat's peer (condottiere.v1.Controller), read straight from proto/condottiere/v1/*.proto,
// and the game's part of the view from the .proto the game ships (games/captains/view.proto).
//
//   node bot.js DATA_DIR   -- DATA_DIR: the data directory of a peer started with --headless
//
// It picks among `view.legal_moves` only, reading the table from `view.detail` (a CaptainsView):
//   city state   the first of a fixed preference (Genoa's purse, Naples' province...);
//   starting hand keep it whenever it may (a proof shows no captain);
//   recruit      the free captain first, then troops and traits on the weakest captain,
//                revenue cards; never the paid (emergency) captain;
//   upkeep       pay; when it cannot, dismiss a troop, then disband;
//   events       each event on the leading seat (most provinces, then ducats), or on the
//                strongest enemy captain; then done;
//   battle       attack the neighbour whose best captain is weakest, with a captain stronger
//                than it; else done;
//   block        block with the strongest captain (a lost battle costs a troop, no block a
//                province);
//   battle cards play one while not ahead, else pass;
//   diplomacy    make no offer; accept an offer that gives more than it asks and asks for no
//                province; over the hand limit, discard the first card the view lists.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const CONTROLLER_VERSION = 3; // the version of the controller service this bot was written for
const GAME = 'captains'; // the game it plays: its part of the view, `view.detail`, is a CaptainsView
const CONSEQUENCES = new Set(['result', 'change']); // what a move decided and changed
const CITY_PREFERENCE = ['genoa', 'naples', 'florence', 'milan', 'pisa', 'savoy', 'venice',
  'papal-states'];
const PROVINCE_WORTH = 6; // ducats a province is worth to this bot, when weighing an offer
const CARD_WORTH = 2; // ... and a card

const ROOT = path.join(__dirname, '..', '..');
const PROTO_DIR = process.env.CONDOTTIERE_PROTO || path.join(ROOT, 'proto');
const GAME_PROTO = process.env.CONDOTTIERE_GAME_PROTO || path.join(ROOT, 'games', 'captains', 'view.proto');
// Loaded together, so that `json: true` unpacks the google.protobuf.Any `view.detail` into the
// game's own message (its fields, and '@type' naming it).
const definition = protoLoader.loadSync(['condottiere/v1/controller.proto', GAME_PROTO], {
  includeDirs: [PROTO_DIR], keepCase: true, longs: Number, defaults: true, json: true,
});
const VIEW_TYPE = 'type.googleapis.com/condottiere.games.captains.v1.CaptainsView';
const { Controller } = grpc.loadPackageDefinition(definition).condottiere.v1;

const words = (move) => move.split(' ');
const withVerb = (moves, verb) => moves.filter((move) => words(move)[0] === verb);
const best = (items, score) => items.reduce((a, b) => (score(b) > score(a) ? b : a));
const safeMove = (moves) => ['done', 'pass', 'refuse', 'no-block', 'pay']
  .find((move) => moves.includes(move)) || moves[0];

// The TFR of every captain in play, by captain, and who controls him.
function captainsInPlay(table) {
  const found = new Map();
  table.seats.forEach((seat, number) => {
    for (const captain of seat.captains) found.set(captain.captain, { seat: number, tfr: captain.tfr });
  });
  return found;
}

function strongest(table, seat) {
  return Math.max(0, ...table.seats[seat].captains.map((captain) => captain.tfr));
}

// The seat every event is played on: the most provinces, then the most ducats.
function leader(table, me) {
  const others = table.seats.map((seat, number) => ({ seat, number }))
    .filter(({ seat, number }) => number !== me && !seat.defeated && !seat.departed);
  return best(others, ({ seat }) => seat.provinces * 1000 + seat.ducats).number;
}

function recruit(moves, table, me) {
  const free = withVerb(moves, 'captain');
  if (free.length) return free[0];
  const mine = new Map(table.seats[me].captains.map((captain) => [captain.captain, captain.tfr]));
  const attach = withVerb(moves, 'attach');
  if (attach.length) return best(attach, (move) => -mine.get(words(move)[2]));
  const revenue = withVerb(moves, 'revenue');
  return revenue.length ? revenue[0] : 'done';
}

function upkeep(moves) {
  if (moves.includes('pay')) return 'pay';
  const dismiss = withVerb(moves, 'dismiss');
  return dismiss.length ? dismiss[0] : moves[0];
}

function events(moves, table, me) {
  const target = String(leader(table, me));
  const inPlay = captainsInPlay(table);
  const onSeat = withVerb(moves, 'event').filter((move) => words(move)[2] === target);
  if (onSeat.length) return onSeat[0];
  const onCaptain = withVerb(moves, 'event').filter((move) => {
    const captain = inPlay.get(words(move)[2]);
    return captain !== undefined && captain.seat !== me;
  });
  if (onCaptain.length) return best(onCaptain, (move) => inPlay.get(words(move)[2]).tfr);
  return 'done';
}

function attack(moves, table, me) {
  const inPlay = captainsInPlay(table);
  const worth = (move) => {
    const [, captain, seat] = words(move);
    return inPlay.get(captain).tfr - strongest(table, Number(seat));
  };
  const attacks = withVerb(moves, 'attack').filter((move) => worth(move) > 0);
  return attacks.length ? best(attacks, worth) : safeMove(moves);
}

function block(moves, table, me) {
  const inPlay = captainsInPlay(table);
  const blocks = withVerb(moves, 'block');
  return blocks.length ? best(blocks, (move) => inPlay.get(words(move)[1]).tfr) : safeMove(moves);
}

function battleCard(moves, table, me) {
  const { battle } = table;
  const attacking = battle.attacker === me;
  const mine = attacking ? battle.attack_strength : battle.defence_strength;
  const theirs = attacking ? battle.defence_strength : battle.attack_strength;
  const cards = withVerb(moves, 'play');
  return mine <= theirs && cards.length ? cards[0] : 'pass';
}

const NOTHING = { ducats: 0, provinces: 0, cards: [] };

function worth(bundle) {
  return bundle.ducats + PROVINCE_WORTH * bundle.provinces + CARD_WORTH * bundle.cards.length;
}

function answer(moves, table) {
  const give = table.offer.give || NOTHING;
  const get = table.offer.get || NOTHING;
  const good = get.provinces === 0 && worth(give) > worth(get);
  return good && moves.includes('accept') ? 'accept' : 'refuse';
}

function choose(seat, view) {
  const moves = view.legal_moves;
  const table = view.detail;
  switch (view.phase) {
    case 'city':
      return CITY_PREFERENCE.map((city) => `city ${city}`).find((move) => moves.includes(move));
    case 'mulligan':
      return withVerb(moves, 'keep')[0] || 'mulligan';
    case 'recruit':
      return recruit(moves, table, seat);
    case 'upkeep':
      return upkeep(moves);
    case 'events':
      return events(moves, table, seat);
    case 'battle':
      return attack(moves, table, seat);
    case 'block':
      return block(moves, table, seat);
    case 'clash':
      return battleCard(moves, table, seat);
    case 'answer':
      return answer(moves, table);
    case 'hand-limit':
      return moves[0];
    default: // diplomacy: no offer
      return safeMove(moves);
  }
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
    const moves = update.view.legal_moves;
    const move = choose(update.seat, update.view);
    submit(moves.includes(move) ? move : safeMove(moves), safeMove(moves));
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
