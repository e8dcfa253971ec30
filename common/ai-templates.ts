// AI templates (docs/decisions/0037-ai-templates.md): instructions run on a transcript whose
// output is Markdown citing the transcript as `[12:34]`. The four built-in ones, in the ten
// interface languages (the model reads the English instructions; people read their own), and the
// shapes the API answers. Pure: the server and the page share it.
import { z } from 'zod';
import { INSIGHT_LANGUAGES, type InsightLanguage } from './insights';
import type { Locale } from './locales';

export const BUILTIN_TEMPLATE_IDS = ['show-notes', 'blog-post', 'meeting-minutes', 'study-notes'] as const;
export type BuiltinTemplateId = (typeof BUILTIN_TEMPLATE_IDS)[number];

export const isBuiltinTemplate = (id: string): id is BuiltinTemplateId =>
  (BUILTIN_TEMPLATE_IDS as readonly string[]).includes(id);

interface Builtin {
  name: Record<Locale, string>;
  instructions: Record<Locale, string>;
}

export const BUILTIN_TEMPLATES: Readonly<Record<BuiltinTemplateId, Builtin>> = {
  'show-notes': {
    name: {
      en: 'Show notes',
      de: 'Shownotes',
      es: 'Notas del episodio',
      fr: 'Notes d’épisode',
      ja: 'ショーノート',
      ko: '쇼 노트',
      pt: 'Notas do episódio',
      tw: '節目筆記',
      vi: 'Ghi chú chương trình',
      zh: '节目笔记',
    },
    instructions: {
      en: 'Write show notes for this episode: a description of two or three sentences, then the topics discussed in order, each with a one-line summary, then the people, books, tools and websites mentioned.',
      de: 'Schreibe Shownotes zu dieser Folge: eine Beschreibung in zwei oder drei Sätzen, dann die besprochenen Themen der Reihe nach, jedes mit einer Zusammenfassung in einer Zeile, dann die erwähnten Personen, Bücher, Werkzeuge und Websites.',
      es: 'Escribe las notas de este episodio: una descripción de dos o tres frases, luego los temas tratados en orden, cada uno con un resumen de una línea, y después las personas, libros, herramientas y sitios web mencionados.',
      fr: 'Rédige les notes de cet épisode : une description de deux ou trois phrases, puis les sujets abordés dans l’ordre, chacun résumé en une ligne, puis les personnes, livres, outils et sites web cités.',
      ja: 'このエピソードのショーノートを書いてください。2〜3文の紹介、話題を順に1行の要約付きで、そのあと言及された人物・本・ツール・ウェブサイト。',
      ko: '이 에피소드의 쇼 노트를 작성하세요. 두세 문장의 소개, 다룬 주제를 순서대로 각각 한 줄 요약과 함께, 그다음 언급된 사람, 책, 도구, 웹사이트.',
      pt: 'Escreva as notas deste episódio: uma descrição de duas ou três frases, depois os temas discutidos em ordem, cada um com um resumo de uma linha, e então as pessoas, livros, ferramentas e sites mencionados.',
      tw: '為這一集撰寫節目筆記：兩三句的簡介，接著依序列出討論的主題並各附一行摘要，最後列出提到的人物、書籍、工具與網站。',
      vi: 'Viết ghi chú cho tập này: phần mô tả hai hoặc ba câu, sau đó là các chủ đề đã bàn theo thứ tự, mỗi chủ đề kèm một dòng tóm tắt, rồi đến những người, sách, công cụ và trang web được nhắc đến.',
      zh: '为这一期撰写节目笔记：两三句的简介，然后按顺序列出讨论的话题并各附一行摘要，最后列出提到的人物、书籍、工具和网站。',
    },
  },
  'blog-post': {
    name: {
      en: 'Blog post',
      de: 'Blogbeitrag',
      es: 'Entrada de blog',
      fr: 'Article de blog',
      ja: 'ブログ記事',
      ko: '블로그 글',
      pt: 'Post de blog',
      tw: '部落格文章',
      vi: 'Bài blog',
      zh: '博客文章',
    },
    instructions: {
      en: 'Turn the transcript into a blog post: a title, a short introduction, sections with headings that follow the main ideas, and a short conclusion. Keep the speakers’ points and add no facts of your own.',
      de: 'Mach aus dem Transkript einen Blogbeitrag: ein Titel, eine kurze Einleitung, Abschnitte mit Überschriften entlang der Hauptgedanken und ein kurzer Schluss. Behalte die Aussagen der Sprechenden bei und füge keine eigenen Fakten hinzu.',
      es: 'Convierte la transcripción en una entrada de blog: un título, una introducción breve, secciones con encabezados que sigan las ideas principales y una conclusión breve. Conserva lo que dicen los oradores y no añadas datos propios.',
      fr: 'Transforme la transcription en article de blog : un titre, une courte introduction, des sections titrées qui suivent les idées principales et une courte conclusion. Garde les propos des intervenants et n’ajoute aucun fait.',
      ja: '文字起こしをブログ記事にしてください。タイトル、短い導入、主な考えに沿った見出し付きのセクション、短いまとめ。話し手の主張を保ち、独自の事実は加えないこと。',
      ko: '녹취록을 블로그 글로 바꾸세요. 제목, 짧은 도입부, 주요 내용을 따라가는 소제목이 있는 단락, 짧은 결론. 화자의 요점을 유지하고 사실을 새로 덧붙이지 마세요.',
      pt: 'Transforme a transcrição em um post de blog: um título, uma introdução curta, seções com subtítulos que sigam as ideias principais e uma conclusão curta. Mantenha o que os falantes disseram e não acrescente fatos.',
      tw: '將逐字稿改寫成部落格文章：一個標題、簡短的引言、依主要觀點分段並加上小標題，以及簡短的結語。保留講者的論點，不要自行添加事實。',
      vi: 'Chuyển bản ghi thành một bài blog: một tiêu đề, phần mở đầu ngắn, các mục có tiêu đề theo những ý chính và một kết luận ngắn. Giữ nguyên ý của người nói và không thêm dữ kiện nào.',
      zh: '把文字稿改写成一篇博客文章：一个标题、简短的引言、按主要观点分节并配小标题，以及简短的结语。保留讲话者的观点，不要自行添加事实。',
    },
  },
  'meeting-minutes': {
    name: {
      en: 'Meeting minutes',
      de: 'Besprechungsprotokoll',
      es: 'Acta de la reunión',
      fr: 'Compte rendu de réunion',
      ja: '議事録',
      ko: '회의록',
      pt: 'Ata da reunião',
      tw: '會議紀錄',
      vi: 'Biên bản cuộc họp',
      zh: '会议纪要',
    },
    instructions: {
      en: 'Write the minutes of this meeting: the participants when they are named, the topics discussed in order, the decisions taken, the action items with owner and due date when they are said, and the open questions.',
      de: 'Schreibe das Protokoll dieser Besprechung: die Teilnehmenden, soweit genannt, die besprochenen Themen der Reihe nach, die getroffenen Entscheidungen, die Aufgaben mit verantwortlicher Person und Termin, wenn sie genannt werden, und die offenen Fragen.',
      es: 'Redacta el acta de esta reunión: los participantes cuando se nombran, los temas tratados en orden, las decisiones tomadas, las tareas con responsable y fecha cuando se dicen, y las preguntas abiertas.',
      fr: 'Rédige le compte rendu de cette réunion : les participants quand ils sont nommés, les sujets abordés dans l’ordre, les décisions prises, les actions avec responsable et échéance quand elles sont dites, et les questions ouvertes.',
      ja: 'この会議の議事録を書いてください。名前が出た参加者、話し合った議題を順に、決定事項、担当者と期限が述べられた場合はそれを含むアクションアイテム、未解決の質問。',
      ko: '이 회의의 회의록을 작성하세요. 이름이 언급된 참석자, 논의한 주제를 순서대로, 내려진 결정, 담당자와 기한이 언급된 경우 이를 포함한 실행 항목, 남은 질문.',
      pt: 'Escreva a ata desta reunião: os participantes quando são nomeados, os temas discutidos em ordem, as decisões tomadas, as tarefas com responsável e prazo quando ditos, e as questões em aberto.',
      tw: '撰寫這場會議的會議紀錄：有提到姓名的與會者、依序討論的議題、做出的決定、有提到負責人與期限的待辦事項，以及尚待解決的問題。',
      vi: 'Viết biên bản cuộc họp này: những người tham dự khi được nêu tên, các chủ đề đã bàn theo thứ tự, các quyết định, các việc cần làm kèm người phụ trách và hạn chót khi được nói, và các câu hỏi còn bỏ ngỏ.',
      zh: '撰写这次会议的纪要：提到姓名的参会者、按顺序讨论的议题、做出的决定、提到负责人和期限的待办事项，以及尚未解决的问题。',
    },
  },
  'study-notes': {
    name: {
      en: 'Study notes',
      de: 'Lernnotizen',
      es: 'Apuntes de estudio',
      fr: 'Fiches de révision',
      ja: '学習ノート',
      ko: '학습 노트',
      pt: 'Anotações de estudo',
      tw: '學習筆記',
      vi: 'Ghi chú học tập',
      zh: '学习笔记',
    },
    instructions: {
      en: 'Write study notes: the key ideas with short explanations, the important terms with their definitions, the examples given, and five review questions with their answers.',
      de: 'Schreibe Lernnotizen: die wichtigsten Gedanken mit kurzen Erklärungen, die wichtigen Begriffe mit ihren Definitionen, die genannten Beispiele und fünf Wiederholungsfragen mit ihren Antworten.',
      es: 'Escribe apuntes de estudio: las ideas clave con explicaciones breves, los términos importantes con sus definiciones, los ejemplos dados y cinco preguntas de repaso con sus respuestas.',
      fr: 'Rédige des fiches de révision : les idées clés avec de courtes explications, les termes importants et leur définition, les exemples donnés et cinq questions de révision avec leurs réponses.',
      ja: '学習ノートを書いてください。重要な考えと短い説明、重要な用語とその定義、挙げられた例、そして答え付きの復習問題を5つ。',
      ko: '학습 노트를 작성하세요. 핵심 개념과 짧은 설명, 중요한 용어와 그 정의, 제시된 예시, 그리고 답이 있는 복습 질문 다섯 개.',
      pt: 'Escreva anotações de estudo: as ideias principais com explicações curtas, os termos importantes com suas definições, os exemplos dados e cinco perguntas de revisão com as respostas.',
      tw: '撰寫學習筆記：重點觀念與簡短說明、重要名詞及其定義、提到的例子，以及五個附答案的複習問題。',
      vi: 'Viết ghi chú học tập: các ý chính kèm giải thích ngắn, các thuật ngữ quan trọng và định nghĩa, các ví dụ được nêu, và năm câu hỏi ôn tập kèm đáp án.',
      zh: '撰写学习笔记：重点概念及简短说明、重要术语及其定义、提到的例子，以及五个附答案的复习问题。',
    },
  },
};

/** Most templates one workspace keeps, and the longest name and instructions. */
export const MAX_TEMPLATES = 50;
export const MAX_TEMPLATE_NAME = 80;
export const MAX_TEMPLATE_INSTRUCTIONS = 4000;

/** A template as written by a member (create and edit). */
export const templateInputSchema = z
  .object({
    name: z.string().trim().min(1).max(MAX_TEMPLATE_NAME),
    instructions: z.string().trim().min(1).max(MAX_TEMPLATE_INSTRUCTIONS),
    /** The output language; null: whoever runs it gets their interface language. */
    language: z.enum(INSIGHT_LANGUAGES).nullable().default(null),
  })
  .strict();
export type TemplateInput = z.infer<typeof templateInputSchema>;

/** A template as the API answers it; a built-in one has `builtin: true` and no author. */
export interface TemplateJson {
  /** A built-in template's id (`show-notes` …) or an own template's uuid. */
  id: string;
  builtin: boolean;
  name: string;
  instructions: string;
  language: InsightLanguage | null;
  created_by: string | null;
  created_at: number | null;
  updated_at: number | null;
}

/** The built-in templates in one language. */
export function builtinTemplates(locale: Locale): TemplateJson[] {
  return BUILTIN_TEMPLATE_IDS.map((id) => ({
    id,
    builtin: true,
    name: BUILTIN_TEMPLATES[id].name[locale],
    instructions: BUILTIN_TEMPLATES[id].instructions[locale],
    language: null,
    created_by: null,
    created_at: null,
    updated_at: null,
  }));
}
