/**
 * The look of a share link's code page, one stylesheet for both who draw it: the server, which writes
 * the page into link.html at request time (server/routes/link-page-html.ts: it paints before any script
 * has loaded, issue 44 item 6), and the React page that takes it over (src/features/share-link). Plain
 * CSS, no antd: its controls get antd's look with the app's theme (primary #0958d9, 8 px radius, 40 px
 * controls — 44 px on phones, like the app's touch targets). Phones are below antd's md breakpoint
 * (767 px, as usePhone); /downLoadM pages are tight on any screen (`lp-compact`).
 */
export const LINK_PAGE_FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";

export const LINK_PAGE_CSS = `
.lp-main{min-height:100vh;box-sizing:border-box;background:#f5f6f8;display:flex;justify-content:center;padding:32px;font-family:${LINK_PAGE_FONT};font-size:14px;color:rgba(0,0,0,.88)}
.lp-card{width:100%;max-width:480px;box-sizing:border-box;background:#fff;border-radius:8px;padding:24px;align-self:flex-start}
.lp-brand{display:inline-flex;align-items:center;gap:10px;margin-bottom:20px}
.lp-brand img{width:28px;height:28px;object-fit:contain}
.lp-brand span{font-size:15.68px;font-weight:600;white-space:nowrap}
.lp-summary{margin-bottom:20px}
.lp-who{display:flex;align-items:center;gap:10px;margin-bottom:12px}
.lp-initial{width:36px;height:36px;flex:none;border-radius:50%;background:#e6f0ff;color:#0958d9;display:inline-flex;align-items:center;justify-content:center;font-size:16px;font-weight:600}
.lp-who-text{min-width:0;line-height:1.4}
.lp-sharer{font-size:15px;overflow-wrap:anywhere}
.lp-muted{color:rgba(0,0,0,.62)}
.lp-file{display:flex;align-items:center;gap:12px;padding:12px 14px;border:1px solid #eef0f3;border-radius:8px;background:#fafbfc}
.lp-file-text{min-width:0}
.lp-file-name{font-size:15px;font-weight:500;overflow-wrap:anywhere}
.lp-file-meta{color:rgba(0,0,0,.62);font-size:13px;margin-top:2px}
.lp-expiry{color:rgba(0,0,0,.62);font-size:13px;margin-top:8px}
.lp-kind{position:relative;display:inline-flex;line-height:1;flex:none}
.lp-kind .anticon{display:inline-flex;align-items:center;font-style:normal;line-height:0;text-align:center;vertical-align:-.125em}
.lp-kind svg{display:inline-block}
.lp-label{display:block;font-weight:500;margin-bottom:8px}
.lp-row{display:flex;gap:8px}
.lp-opening{display:flex;align-items:center;gap:8px;color:rgba(0,0,0,.62)}
.lp-spin{width:16px;height:16px;box-sizing:border-box;border:2px solid #d6e4ff;border-top-color:#0958d9;border-radius:50%;animation:lp-spin .8s linear infinite}
@keyframes lp-spin{to{transform:rotate(360deg)}}
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
.lp-note-icon{font-weight:700}
.lp-note-error .lp-note-icon{color:#ff4d4f}
.lp-note-warning .lp-note-icon{color:#faad14}
.lp-note-detail{color:rgba(0,0,0,.62);margin-top:4px}
.lp-compact{padding:12px}
.lp-compact .lp-card{padding:16px}
@media (max-width:767px){.lp-main{padding:12px}.lp-card{padding:16px}.lp-input,.lp-btn{height:44px}}
`;
