/** Where the panel covers the whole window (a phone): there it is modal (chat.ts). */
export const FULL_SCREEN = '(max-width:480px)';

/** The chat panel's styles, inside the widget's shadow root (nothing leaks in or out). */
export const CSS = `
:host{all:initial}
.p{position:fixed;bottom:20px;z-index:2147483001;width:370px;max-width:calc(100vw - 40px);height:560px;max-height:calc(100vh - 40px);display:flex;flex-direction:column;background:#fff;color:#1f2937;border-radius:16px;box-shadow:0 10px 40px rgba(0,0,0,.25);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow:hidden}
.p[hidden]{display:none}
.right{right:20px}.left{left:20px}
header{display:flex;align-items:center;gap:4px;padding:12px 12px 12px 16px;background:var(--p);color:#fff}
h2{flex:1;margin:0;font-size:16px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.icon{background:transparent;border:0;color:inherit;width:36px;height:36px;border-radius:8px;cursor:pointer;display:flex;align-items:center;justify-content:center}
.icon:hover{background:rgba(255,255,255,.15)}.icon[hidden]{display:none}
button:focus-visible,textarea:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #111;outline-offset:2px}
header button:focus-visible{outline-color:#fff}
.log{flex:1;overflow-y:auto;margin:0;padding:16px;list-style:none;display:flex;flex-direction:column;gap:10px;background:#fafafa}
.m{display:flex}.m.human{justify-content:flex-end}
.b{max-width:85%;padding:9px 13px;border-radius:14px;overflow-wrap:anywhere;white-space:pre-wrap}
.ai .b{background:var(--s);color:#111827;border-bottom-left-radius:4px;white-space:normal}
.human .b{background:var(--p);color:#fff;border-bottom-right-radius:4px}
.note .b,.note form{background:#fff7ed;color:#7c2d12;border:1px solid #fed7aa;border-radius:12px;padding:9px 13px;white-space:normal}
.b p{margin:0 0 .5em}.b p:last-child{margin:0}.b a{color:inherit;text-decoration:underline}.b ul,.b ol{margin:.3em 0;padding-left:1.3em}
.b pre{white-space:pre-wrap;background:rgba(0,0,0,.06);padding:6px;border-radius:6px}.b table{border-collapse:collapse}.b td,.b th{border:1px solid #ddd;padding:2px 6px}
.contact{display:flex;flex-direction:column;gap:8px;width:100%}.contact label{display:flex;flex-direction:column;gap:4px}
.contact input{font:inherit;padding:7px 9px;border:1px solid #d1d5db;border-radius:8px}
.contact .problem{margin:0;font-weight:600}.contact .problem:empty{display:none}.contact input[aria-invalid=true]{border-color:#b91c1c}
.contact button,.send{font:inherit;font-weight:600;background:var(--p);color:#fff;border:0;border-radius:10px;padding:8px 14px;cursor:pointer}
.composer{position:relative;display:flex;gap:8px;padding:10px;border-top:1px solid #e5e7eb;background:#fff}
.count{position:absolute;right:12px;bottom:100%;margin:0 0 4px;padding:2px 8px;border-radius:6px;font-size:13px;background:#fff;color:#4b5563;box-shadow:0 1px 3px rgba(0,0,0,.15)}.count[hidden]{display:none}.count.full{color:#7f1d1d;background:#fef2f2;font-weight:600}
textarea{flex:1;resize:none;font:inherit;padding:8px 10px;border:1px solid #d1d5db;border-radius:10px;max-height:120px}
.send:disabled{opacity:.6;cursor:default}
.notice .b{max-width:none;background:transparent;color:#4b5563;font-size:13px;padding:2px 4px;white-space:normal;margin:0}
.confirm p{margin:0 0 8px}.confirm button{font:inherit;border-radius:8px;padding:6px 12px;margin-right:8px;cursor:pointer;border:1px solid #d1d5db;background:#fff;color:#111827}.confirm .danger{background:#b91c1c;border-color:#b91c1c;color:#fff;font-weight:600}
.m.ai{flex-direction:column;align-items:flex-start}
.rate{align-self:stretch;max-width:85%;display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin-top:4px;font-size:13px;color:#4b5563}
.rate>button{width:32px;height:32px;padding:0;display:flex;align-items:center;justify-content:center;border:1px solid #d1d5db;border-radius:8px;background:#fff;color:#4b5563;cursor:pointer}
.rate>[aria-pressed=false]:hover{border-color:#4b5563;color:#111827}.rate .down svg{transform:rotate(180deg)}
.rate>[aria-pressed=true],.why [type=submit]{background:var(--p);border-color:var(--p);color:#fff}
.rate[aria-busy=true]>button{cursor:progress}.rate .err{color:#b91c1c;font-weight:600}
.why{flex-basis:100%;display:flex;flex-direction:column;gap:6px}.why textarea{flex:none;font-size:14px;background:#fff}
.why div{display:flex;gap:8px}.why button{font:inherit;font-weight:600;border:1px solid #d1d5db;border-radius:8px;padding:5px 12px;background:#fff;color:#111827;cursor:pointer}
.sr{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
@media ${FULL_SCREEN}{.p{inset:0;width:100%;max-width:none;height:100%;max-height:none;border-radius:0}}
`;
