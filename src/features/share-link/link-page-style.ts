/**
 * The link's code page is plain HTML (no antd: it paints before any component library has loaded,
 * issue 44); these rules give its controls antd's look with the app's theme (primary #0958d9, 8 px
 * radius, 40 px controls — 44 px on phones, like the app's touch targets).
 */
export const LINK_PAGE_CSS = `
.lp-input{flex:1;min-width:0;box-sizing:border-box;height:40px;padding:0 11px;font:inherit;font-size:16px;letter-spacing:2px;color:rgba(0,0,0,.88);border:1px solid #d9d9d9;border-radius:8px;background:#fff;outline:none;transition:border-color .2s,box-shadow .2s}
.lp-input:hover{border-color:#2e7ae6}
.lp-input:focus{border-color:#0958d9;box-shadow:0 0 0 2px rgba(5,145,255,.1)}
.lp-input::placeholder{color:rgba(0,0,0,.56);letter-spacing:0}
.lp-btn{flex:none;height:40px;padding:0 18px;font:inherit;font-size:16px;color:#fff;background:#0958d9;border:0;border-radius:8px;cursor:pointer;box-shadow:0 2px 0 rgba(5,145,255,.1)}
.lp-btn:hover{background:#2e7ae6}
.lp-btn:active{background:#003eb3}
.lp-btn:focus-visible{outline:2px solid #85c0ff;outline-offset:1px}
.lp-btn:disabled{color:rgba(0,0,0,.25);background:rgba(0,0,0,.04);border:1px solid #d9d9d9;box-shadow:none;cursor:not-allowed}
.lp-btn-link{height:auto;padding:0;color:#0958d9;background:none;box-shadow:none}
.lp-btn-link:hover{color:#2e7ae6;background:none}
.lp-note{display:flex;gap:8px;align-items:flex-start;padding:9px 12px;border-radius:8px;line-height:1.57}
.lp-note-error{background:#fff2f0;border:1px solid #ffccc7;color:rgba(0,0,0,.88)}
.lp-note-warning{background:#fffbe6;border:1px solid #ffe58f;color:rgba(0,0,0,.88)}
@media (max-width:767px){.lp-input,.lp-btn{height:44px}}
`;
