/**
 * The explorer as one HTML file: the page bundle inline, the dialect definitions as
 * JSON data, no external resource of any kind (the CSP forbids fetching anything).
 */

export const GENERATOR = 'dice-dialects explore';

/** `</script` inside inline text would end the element early. */
const inline = (text: string): string => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

export function explorerHtml(bundle: string, data: { dialects: unknown[]; version: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${GENERATOR}">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<link rel="icon" href="data:,">
<title>dice-dialects explorer</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>dice-dialects explorer</h1> <span id="version" class="muted"></span>
<span class="muted">one position and roll under every dialect; the state is in the link</span></header>
<section id="controls">
<div class="row"><label for="dfen">Position (DFEN)</label><input id="dfen" spellcheck="false" autocomplete="off">
<select id="sample" aria-label="sample positions"><option value="">Sample positions…</option></select></div>
<div class="row"><span class="label">Dice</span><span id="dice-tray"></span><span class="muted">add:</span><span id="faces"></span><button type="button" id="clear-dice">clear dice</button></div>
<div class="row"><label for="turn">Turn</label><input id="turn" spellcheck="false" autocomplete="off" placeholder="micro-moves, comma-separated (e2e4,g1f3), or pass">
<span id="stepper"><button type="button" id="step-first" title="before the first micro-move">«</button><button type="button" id="step-prev" title="one micro-move back">‹</button><span id="step-label"></span><button type="button" id="step-next" title="one micro-move on">›</button><button type="button" id="step-last" title="after the last micro-move">»</button></span>
<button type="button" id="clear-turn">clear turn</button></div>
<div class="row"><label for="set">Options</label><textarea id="set" rows="2" spellcheck="false" placeholder="one a line: maximum=micro-move (every column), or reference+maximum=path-all (a column of its own)"></textarea>
<label class="file">Dialect file <input type="file" id="file" accept=".json,application/json"></label><span class="muted">or drop one on the page</span></div>
<p id="message" class="bad"></p>
</section>
<section id="summary"></section>
<main id="panels"></main>
<script type="application/json" id="explorer-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<script>${inline(bundle)}</script>
</body>
</html>
`;
}

const CSS = `
:root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d1d1f;background:#fafafa}
body{margin:0;padding:0 16px 32px}
header{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
h1{font-size:20px;margin:14px 0 8px}
#controls{background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px 12px}
.row{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:6px 0}
.row label,.label{font-weight:600;min-width:110px}
.row label.file{font-weight:400;min-width:0}
#dfen,#turn{flex:1;min-width:320px;font:13px ui-monospace,"DejaVu Sans Mono",monospace;padding:5px}
#set{flex:1;min-width:320px;font:13px ui-monospace,"DejaVu Sans Mono",monospace}
button{font:inherit;cursor:pointer}
button.face,button.die{border:1px solid transparent;background:none;padding:1px;display:inline-flex;flex-direction:column;align-items:center;font-size:10px}
button.face:hover,button.die:hover{border-color:#888;border-radius:4px}
.die-letter{font:10px ui-monospace,monospace;color:#555}
#dice-tray{display:inline-flex;gap:2px;min-width:100px}
#faces{display:inline-flex;gap:2px}
#stepper{display:inline-flex;gap:4px;align-items:center}
#step-label{min-width:110px;text-align:center;font-size:13px}
#message:empty{display:none}
#summary p{margin:10px 0 4px;font-weight:600}
.groups{margin:0;padding-left:18px;font-size:13px}
#panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(372px,1fr));gap:12px;margin-top:10px}
.panel{background:#fff;border:1px solid #ddd;border-radius:8px;padding:8px 10px;min-width:0}
.panel.differs{border-color:#d8a200;box-shadow:0 0 0 1px #d8a200 inset}
.panel.focus{outline:3px solid #1f6feb}
.panel h2{font-size:16px;margin:2px 0 6px;display:flex;flex-wrap:wrap;column-gap:6px;align-items:baseline}
.panel h2 small{font-weight:400;color:#666;font-size:12px;font-family:ui-monospace,monospace;word-break:break-all}
.panel h3{font-size:13px;margin:8px 0 4px}
.group{display:inline-block;min-width:18px;text-align:center;border-radius:9px;font-size:12px;font-weight:700;color:#fff;background:#555;padding:0 5px;margin-left:auto}
.gA{background:#2b7a0b}.gB{background:#b35c00}.gC{background:#6f42c1}.gD{background:#0a6a8a}.gE{background:#a0153e}.gF{background:#555}
.board-box svg{max-width:100%;height:auto}
.verdict{font-size:13px;margin:4px 0}
.verdict strong{font-family:ui-monospace,monospace;margin-right:6px}
.sentence{color:#333}
.moves{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:4px}
.moves li{font:12px ui-monospace,"DejaVu Sans Mono",monospace;border:1px solid #ccc;border-radius:4px;padding:1px 5px;cursor:pointer;background:#f4f4f4}
.moves li.muted{cursor:default;border:none;background:none}
.moves li:hover,.turns li:hover{background:#e6f0ff}
.moves li.differs,.turns li.differs{background:#fff3bf;border-color:#d8a200}
.turns li.differs{outline:1px solid #d8a200}
.turns{font:12px ui-monospace,"DejaVu Sans Mono",monospace;max-height:220px;overflow:auto;margin:4px 0;padding-left:38px}
.turns li{cursor:pointer}
.muted{color:#777;font-size:13px}
.good{color:#1a7f37}.bad{color:#b42318}
.error{font-size:13px}
body.dragging{outline:4px dashed #1f6feb;outline-offset:-8px}
`;
