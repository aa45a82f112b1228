import { type FormEvent, useState } from 'react';
import { type AnnouncementInput, CATEGORIES, LANGUAGES, type Language, opsApi, problemOf } from './api.ts';

type Texts = Record<Language, { title: string; bodyMd: string }>;
const EMPTY: Texts = Object.fromEntries(LANGUAGES.map((l) => [l, { title: '', bodyMd: '' }])) as Texts;

/** Languages with a title; zh-CN is required (the fallback), the others are sent only when written. */
function inputOf(category: string, pinned: boolean, publishAt: string, texts: Texts): AnnouncementInput {
  const written = LANGUAGES.filter((l) => l === 'zh-CN' || texts[l].title.trim() !== '');
  return {
    category: category as AnnouncementInput['category'],
    pinned,
    ...(publishAt ? { publishAt: new Date(publishAt).toISOString() } : {}),
    texts: Object.fromEntries(written.map((l) => [l, texts[l]])) as AnnouncementInput['texts'],
  };
}

/** Write an announcement per language, preview the HTML the server makes of it, publish. */
export function AnnouncementEditor({ onPublished }: { onPublished: () => void }) {
  const [category, setCategory] = useState<string>('news');
  const [pinned, setPinned] = useState(false);
  const [publishAt, setPublishAt] = useState('');
  const [language, setLanguage] = useState<Language>('zh-CN');
  const [texts, setTexts] = useState<Texts>(EMPTY);
  const [preview, setPreview] = useState('');
  const [problem, setProblem] = useState('');
  const edit = (field: 'title' | 'bodyMd', value: string) =>
    setTexts((t) => ({ ...t, [language]: { ...t[language], [field]: value } }));
  const showPreview = () =>
    opsApi.preview(texts[language].bodyMd).then(
      (r) => setPreview(r.html),
      (e: unknown) => setProblem(problemOf(e)),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    opsApi.publish(inputOf(category, pinned, publishAt, texts)).then(
      () => {
        setTexts(EMPTY);
        setPreview('');
        onPublished();
      },
      (e: unknown) => setProblem(problemOf(e)),
    );
  };
  return (
    <form className="card editor" onSubmit={submit} data-testid="ops-editor">
      <h2>New announcement</h2>
      <div className="row">
        <select
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          aria-label="Category"
          data-testid="ops-category"
        >
          {CATEGORIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} /> pinned
        </label>
        <label>
          publish at <input type="datetime-local" value={publishAt} onChange={(e) => setPublishAt(e.target.value)} />
        </label>
      </div>
      <div className="tabs" role="tablist">
        {LANGUAGES.map((l) => (
          <button
            key={l}
            type="button"
            role="tab"
            aria-selected={l === language}
            onClick={() => setLanguage(l)}
            data-testid={`ops-lang-${l}`}
          >
            {l}
            {texts[l].title ? ' ✓' : ''}
          </button>
        ))}
      </div>
      <input
        placeholder={`Title (${language})`}
        value={texts[language].title}
        onChange={(e) => edit('title', e.target.value)}
        data-testid="ops-title"
      />
      <textarea
        placeholder="Markdown"
        rows={10}
        value={texts[language].bodyMd}
        onChange={(e) => edit('bodyMd', e.target.value)}
        data-testid="ops-body"
      />
      <div className="row">
        <button type="button" onClick={showPreview} data-testid="ops-preview">
          Preview
        </button>
        <button type="submit" data-testid="ops-publish">
          Publish
        </button>
      </div>
      {problem ? <p className="problem">{problem}</p> : null}
      {/* The server's sanitised HTML, as the app shows it. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server's allowlist */}
      {preview ? (
        <div className="preview" data-testid="ops-preview-html" dangerouslySetInnerHTML={{ __html: preview }} />
      ) : null}
    </form>
  );
}
