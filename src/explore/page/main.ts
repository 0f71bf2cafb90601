import { boardSvg } from './board-svg.js';
import { type Analysis, analyse, type PanelAnswer, stepLimit, turnText, unreadableMove } from './analyse.js';
import { splitTurn } from '../../core/uci.js';
import { type ExplorerState, formatHash, parseHash } from './hash.js';
import { buildPanels, checkOptionLines, type DroppedFile, type OptionLines, type Panel, parseOptionLines } from './panels.js';
import { SAMPLES } from './samples.js';
import { diceField, dieSvg, FACE_LETTERS, withDice } from './dice.js';

/**
 * The explorer page: one position and roll under every dialect side by side. All rules
 * work happens in the bundled core (the CLI's code); this module only reads the
 * controls, keeps the state in the URL hash and renders.
 */

interface PageData {
  dialects: unknown[];
  version: string;
}

const data = JSON.parse(document.getElementById('explorer-data')!.textContent ?? '{}') as PageData;
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

const SHOWN_TURNS = 300;
const dropped: DroppedFile[] = [];
let state: ExplorerState = parseHash(location.hash);
let panels: Panel[] = [];
let options: OptionLines = { global: [], variants: [], bad: [] };
let panelsKey = '';
let renders = 0;

function currentPanels(): Panel[] {
  const key = `${state.set}\u0000${dropped.length}`;
  if (key !== panelsKey) {
    options = checkOptionLines(data.dialects, parseOptionLines(state.set));
    panels = buildPanels(data.dialects, dropped, options);
    panelsKey = key;
  }
  return panels;
}

/** The step within what the turn allows (none for a turn that does not read). */
function clampStep(s: ExplorerState): ExplorerState {
  return { ...s, step: Math.max(0, Math.min(s.step, stepLimit(s.turn))) };
}

/** The state from the address. A link may ask for a step its turn cannot take: the address then says the step shown. */
function readHash(): void {
  const asked = parseHash(location.hash);
  state = clampStep(asked);
  if (state.step !== asked.step) history.replaceState(null, '', formatHash(state));
}

function setState(next: Partial<ExplorerState>): void {
  state = clampStep({ ...state, ...next });
  const hash = formatHash(state);
  if (location.hash !== hash) history.replaceState(null, '', hash);
  render();
}

// ---- controls ---------------------------------------------------------------------

function initControls(): void {
  const sample = $<HTMLSelectElement>('sample');
  SAMPLES.forEach((s, i) => sample.append(el('option', { value: String(i) }, s.label)));
  sample.addEventListener('change', () => {
    const s = SAMPLES[Number(sample.value)];
    if (s) setState({ dfen: s.dfen, turn: s.turn === undefined ? null : splitTurn(s.turn), step: 0, set: s.set ?? '' });
    sample.value = '';
  });
  $<HTMLInputElement>('dfen').addEventListener('change', (e) => setState({ dfen: (e.target as HTMLInputElement).value.trim(), step: 0 }));
  $<HTMLInputElement>('turn').addEventListener('change', (e) => {
    const v = (e.target as HTMLInputElement).value;
    setState({ turn: v.trim() === '' ? null : splitTurn(v), step: 0 });
  });
  $<HTMLTextAreaElement>('set').addEventListener('change', (e) => setState({ set: (e.target as HTMLTextAreaElement).value }));
  $('faces').addEventListener('click', (e) => {
    const b = (e.target as Element).closest('button[data-face]');
    const dice = diceField(state.dfen);
    if (b === null || dice.length >= 3) return;
    setState({ dfen: withDice(state.dfen, dice + b.getAttribute('data-letter')), step: 0 });
  });
  $('dice-tray').addEventListener('click', (e) => {
    const b = (e.target as Element).closest('button[data-index]');
    if (b === null) return;
    const i = Number(b.getAttribute('data-index'));
    const dice = diceField(state.dfen);
    setState({ dfen: withDice(state.dfen, dice.slice(0, i) + dice.slice(i + 1)), step: 0 });
  });
  $('clear-dice').addEventListener('click', () => setState({ dfen: withDice(state.dfen, ''), step: 0 }));
  const step = (to: (n: number, max: number) => number) => () => setState({ step: to(state.step, state.turn?.length ?? 0) });
  $('step-first').addEventListener('click', step(() => 0));
  $('step-prev').addEventListener('click', step((n) => n - 1));
  $('step-next').addEventListener('click', step((n) => n + 1));
  $('step-last').addEventListener('click', step((_, max) => max));
  $('clear-turn').addEventListener('click', () => setState({ turn: null, step: 0 }));
  $<HTMLInputElement>('file').addEventListener('change', (e) => {
    const input = e.target as HTMLInputElement;
    const files = input.files ? [...input.files] : [];
    // Emptied, so that picking the same file again (mended) is a change too, not ignored.
    input.value = '';
    void addDialectFiles(files);
  });
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    if (e.dataTransfer) void addDialectFiles([...e.dataTransfer.files]);
  });
  window.addEventListener('hashchange', () => {
    readHash();
    render();
  });
}

/** Each file becomes a column, even one that is not JSON: its column and the summary say why it cannot be played. */
async function addDialectFiles(files: File[]): Promise<void> {
  for (const f of files) {
    let text: string;
    try {
      text = await f.text();
    } catch (e) {
      dropped.push({ file: f.name, problem: `cannot be read: ${(e as Error).message} [dialect.read]` });
      continue;
    }
    try {
      dropped.push({ file: f.name, definition: JSON.parse(text) });
    } catch (e) {
      dropped.push({ file: f.name, problem: `not JSON: ${(e as Error).message} [dialect.json]` });
    }
  }
  render();
}

/** The options box's lines that were not applied, each with its number and why; built here, so the page's HTML stays as it was. */
function renderOptionProblems(): void {
  let list = document.getElementById('set-problems');
  if (list === null) {
    list = el('ul', { id: 'set-problems', class: 'bad' });
    $('message').before(list);
  }
  list.replaceChildren(...options.bad.map((b) => el('li', { 'data-line': String(b.line) }, `line ${b.line}, "${b.text}": not applied: ${b.reason}`)));
  list.hidden = options.bad.length === 0;
}

function syncControls(): void {
  const set = (id: string, v: string) => {
    const input = $<HTMLInputElement>(id);
    if (input.value !== v) input.value = v;
  };
  set('dfen', state.dfen);
  set('turn', state.turn === null ? '' : turnText(state.turn));
  set('set', state.set);
  // Rebuilt only when they change: replacing a button under the pointer would lose the click.
  const dice = diceField(state.dfen);
  const tray = $('dice-tray');
  if (tray.dataset.dice !== dice) {
    tray.dataset.dice = dice;
    tray.replaceChildren();
    [...dice].forEach((letter, i) => {
      const b = el('button', { type: 'button', class: 'die', 'data-die': letter, 'data-index': String(i), title: 'remove this die' });
      b.innerHTML = dieSvg(letter, 30);
      tray.append(b);
    });
    if (dice === '') tray.append(el('span', { class: 'muted' }, 'no dice: click a face'));
  }
  // Dice are cased by the side to move, as in a DFEN.
  const black = /^\S+\s+b(\s|$)/.test(state.dfen.trim());
  const faces = $('faces');
  if (faces.dataset.side !== (black ? 'b' : 'w')) {
    faces.dataset.side = black ? 'b' : 'w';
    faces.replaceChildren();
    FACE_LETTERS.forEach((l, i) => {
      const letter = black ? l : l.toUpperCase();
      const b = el('button', { type: 'button', class: 'face', 'data-face': String(i + 1), 'data-letter': letter, title: `add a ${letter} die` });
      b.innerHTML = dieSvg(letter, 26);
      faces.append(b);
    });
  }
  const n = stepLimit(state.turn);
  const unreadable = unreadableMove(state.turn);
  $('step-label').textContent =
    state.turn === null ? 'no turn typed' : unreadable !== null ? `cannot step: "${unreadable.text}" is not a move [${unreadable.code}]` : `step ${state.step} of ${n}`;
  for (const id of ['step-first', 'step-prev']) $<HTMLButtonElement>(id).disabled = state.step === 0;
  for (const id of ['step-next', 'step-last']) $<HTMLButtonElement>(id).disabled = state.step >= n;
}

// ---- panels -----------------------------------------------------------------------

function render(): void {
  syncControls();
  const list = currentPanels();
  const analysis = analyse(list, state.dfen, state.turn, state.step);
  renderSummary(analysis);
  const box = $('panels');
  box.replaceChildren(...analysis.answers.map((a, i) => renderPanel(list[i], a, analysis)));
  // Columns that can play the position first, then those that cannot; a focused one before all.
  for (const p of [...box.querySelectorAll('.panel')]) if (p.querySelector('.error')) box.append(p);
  const focused = box.querySelector('.panel.focus');
  if (focused) box.prepend(focused);
  renderOptionProblems();
  // Tests (and scripts) wait on this counter after changing the hash.
  document.body.dataset.renders = String(++renders);
}

function renderSummary(a: Analysis): void {
  const s = $('summary');
  s.replaceChildren();
  const ok = a.answers.filter((x) => x.error === null);
  if (ok.length === 0) s.append(el('p', { class: 'bad' }, 'No dialect can play this position: see each column.'));
  else renderAgreement(s, a, ok);
  const failed = a.answers.filter((x) => x.error !== null);
  if (failed.length === 0) return;
  s.append(el('p', { class: 'muted' }, 'Not playable under:'));
  const ul = el('ul', { class: 'groups muted' });
  for (const x of failed) ul.append(el('li', { 'data-not-playable': x.key }, `${x.key}: ${x.error}`));
  s.append(ul);
}

function renderAgreement(s: HTMLElement, a: Analysis, ok: PanelAnswer[]): void {
  const groups = new Map<string, string[]>();
  for (const x of ok) groups.set(x.group, [...(groups.get(x.group) ?? []), x.key]);
  s.append(el('p', { class: a.agree ? 'good' : 'bad' }, a.agree ? `All ${ok.length} dialects that can play this position agree on its legal turns.` : `The dialects differ: ${groups.size} different sets of legal turns.`));
  if (!a.agree) {
    const ul = el('ul', { class: 'groups' });
    for (const [g, keys] of groups) {
      const li = el('li');
      li.append(el('span', { class: `group g${g}` }, g), document.createTextNode(` ${keys.join(', ')}`));
      ul.append(li);
    }
    s.append(ul);
  }
}

function renderPanel(panel: Panel, a: PanelAnswer, analysis: Analysis): HTMLElement {
  const differs = !analysis.agree && a.error === null;
  const art = el('article', { class: `panel${differs ? ' differs' : ''}${panel.key === state.focus ? ' focus' : ''}`, 'data-dialect': panel.key });
  const h = el('h2', {}, panel.title);
  if (panel.title !== panel.key) h.append(el('small', {}, ` ${panel.key}`));
  if (a.group) h.append(el('span', { class: `group g${a.group}`, title: 'columns with the same letter allow the same turns' }, a.group));
  art.append(h);

  const verdict = el('div', { class: 'verdict' });
  const v = el('strong', { 'data-verdict': a.verdict?.text ?? '' }, a.verdict?.text ?? '');
  if (a.verdict) v.className = a.verdict.text === 'legal' ? 'good' : 'bad';
  verdict.append(el('span', { class: 'muted' }, 'Typed turn: '), v);
  if (a.verdict) verdict.append(el('span', { class: 'sentence' }, `${a.verdict.microMove !== null && a.verdict.text !== 'legal' ? `micro-move ${a.verdict.microMove}: ` : ''}${a.verdict.sentence}`));
  else verdict.append(el('span', { class: 'muted' }, 'none'));

  if (a.error !== null) {
    art.append(verdict, el('p', { class: 'bad error' }, a.error));
    return art;
  }
  const board = el('div', { class: 'board-box' });
  const typed = state.turn ?? [];
  if (a.step && 'dfen' in a.step) board.innerHTML = boardSvg(a.step.dfen, { recorded: typed.slice(state.step), allowed: a.step.next.map((m) => [m]) });
  else board.innerHTML = boardSvg(state.dfen, { recorded: typed, allowed: a.firstMoves.map((m) => [m]) });
  art.append(board, verdict);
  if (a.step && 'error' in a.step) art.append(el('p', { class: 'bad' }, `step ${state.step}: ${a.step.error}`));

  art.append(el('h3', {}, `First micro-moves (${a.firstMoves.length})`));
  const moves = el('ul', { class: 'moves' });
  for (const m of a.firstMoves) {
    const li = el('li', { 'data-uci': m, class: analysis.notEverywhere.firstMoves.has(m) ? 'differs' : '', title: 'start the turn with this micro-move' }, m);
    li.addEventListener('click', () => setState({ turn: [m], step: 1 }));
    moves.append(li);
  }
  if (a.firstMoves.length === 0) moves.append(el('li', { class: 'muted' }, 'none: the turn passes'));
  art.append(moves);

  if (a.step && 'next' in a.step) {
    art.append(el('h3', {}, `After step ${state.step}: next micro-moves (${a.step.next.length})`));
    const next = el('ul', { class: 'moves next' });
    for (const m of a.step.next) {
      const li = el('li', { 'data-next': m, title: 'play this micro-move next' }, m);
      li.addEventListener('click', () => setState({ turn: [...typed.slice(0, state.step), m], step: state.step + 1 }));
      next.append(li);
    }
    if (a.step.next.length === 0) next.append(el('li', { class: 'muted' }, 'none: a legal turn ends here, or none goes on from here'));
    art.append(next);
  }

  const det = el('details', { class: 'turns-box' });
  if (a.turns.length <= 40) det.open = true;
  det.append(el('summary', {}, `Legal turns (${a.turns.length}${a.capped ? '+' : ''})`));
  const ol = el('ol', { class: 'turns', 'data-turn-count': a.capped ? 'capped' : String(a.turns.length) });
  for (const t of a.turns.slice(0, SHOWN_TURNS)) {
    const text = turnText(t);
    const li = el('li', { class: analysis.notEverywhere.turns.has(text) ? 'differs' : '', 'data-turn': text }, text);
    li.addEventListener('click', () => setState({ turn: [...t], step: 0 }));
    ol.append(li);
  }
  det.append(ol);
  if (a.turns.length > SHOWN_TURNS) det.append(el('p', { class: 'muted' }, `and ${a.turns.length - SHOWN_TURNS} more`));
  art.append(det);
  return art;
}

$('version').textContent = `v${data.version}`;
initControls();
readHash();
render();
document.body.setAttribute('data-ready', 'true');
