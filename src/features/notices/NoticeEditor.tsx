import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Input, Popover, Tooltip } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import './notices.css';

/**
 * The rich-text editor of 公告管理 (Tiptap: ProseMirror underneath): paragraphs, headings, bold,
 * italic, underline, strike, lists, quotes and links — the markup the server keeps
 * (NOTICE_HTML_ALLOWED), so what the author sees is what readers get. Loaded with the editor drawer.
 */
export function NoticeEditor({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const editor = useEditor({
    // Made in the mount effect, not during render. One made during render is destroyed by Tiptap
    // 1 ms later unless the mount effect has run by then; under load it had not, and this component
    // still held the destroyed editor: getHTML() threw and the whole notice drawer closed (CI, and
    // always after a retried chunk load).
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' } },
      }),
    ],
    content: value,
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
    editorProps: { attributes: { 'aria-label': '公告内容', 'data-testid': 'notice-editor-content' } },
  });
  // A notice opened for editing after the editor exists replaces its content.
  useEffect(() => {
    if (editor && !editor.isDestroyed && value !== editor.getHTML() && !(value === '' && editor.isEmpty)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  return (
    <div className="nt-editor" data-testid="notice-editor">
      {editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const tool = (label: string, icon: ReactNode, active: boolean, run: () => void, disabled = false) => (
    <Tooltip title={label} key={label}>
      <Button size="small" type={active ? 'primary' : 'text'} icon={icon} aria-label={label} aria-pressed={active} disabled={disabled} onClick={run} />
    </Tooltip>
  );
  return (
    <div className="nt-editor-toolbar" role="toolbar" aria-label="格式">
      {tool('加粗', <BoldOutlined />, state.bold, () => chain().toggleBold().run())}
      {tool('斜体', <ItalicOutlined />, state.italic, () => chain().toggleItalic().run())}
      {tool('下划线', <UnderlineOutlined />, state.underline, () => chain().toggleUnderline().run())}
      {tool('删除线', <StrikethroughOutlined />, state.strike, () => chain().toggleStrike().run())}
      {tool('标题', <span style={{ fontWeight: 600 }}>H2</span>, state.h2, () => chain().toggleHeading({ level: 2 }).run())}
      {tool('小标题', <span style={{ fontWeight: 600 }}>H3</span>, state.h3, () => chain().toggleHeading({ level: 3 }).run())}
      {tool('无序列表', <UnorderedListOutlined />, state.bullet, () => chain().toggleBulletList().run())}
      {tool('有序列表', <OrderedListOutlined />, state.ordered, () => chain().toggleOrderedList().run())}
      {tool('引用', <span style={{ fontWeight: 600 }}>“</span>, state.quote, () => chain().toggleBlockquote().run())}
      <LinkTool editor={editor} active={state.link} />
      {tool('撤销', <UndoOutlined />, false, () => chain().undo().run(), !state.undo)}
      {tool('重做', <RedoOutlined />, false, () => chain().redo().run(), !state.redo)}
    </div>
  );
}

function LinkTool({ editor, active }: { editor: Editor; active: boolean }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const valid = /^(https?:\/\/|mailto:)\S+$/i.test(href.trim());
  const apply = () => {
    if (!valid) return;
    editor.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setHref((editor.getAttributes('link').href as string | undefined) ?? 'https://');
      }}
      trigger="click"
      content={
        <div style={{ display: 'flex', gap: 8, width: 340 }}>
          <Input value={href} onChange={(e) => setHref(e.target.value)} onPressEnter={apply} status={href && !valid ? 'error' : undefined} placeholder="https://" aria-label="链接地址" />
          <Button type="primary" disabled={!valid} onClick={apply}>
            确定
          </Button>
          {active && (
            <Button onClick={() => (editor.chain().focus().unsetLink().run(), setOpen(false))}>移除</Button>
          )}
        </div>
      }
    >
      <Tooltip title="链接（http、https 或 mailto 地址）">
        <Button size="small" type={active ? 'primary' : 'text'} icon={<LinkOutlined />} aria-label="链接" />
      </Tooltip>
    </Popover>
  );
}
