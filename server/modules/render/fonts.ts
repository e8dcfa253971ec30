import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RenderFont } from '../../../common/render-options';

// The font files libass draws captions with. They install with the project (npm packages of Noto
// fonts, SIL Open Font License), so a fresh machine renders every offered script without system
// fonts. The static ffmpeg's libass finds the TrueType faces by family or full name and the CJK
// OpenType (CFF) faces only by PostScript name; an event whose font is not found is dropped
// whole, so each name below was tried (render.test.ts proves every script draws).

/** The scripts a caption run is drawn in, each with its own face. */
export type FontScript = 'latin' | 'ja' | 'zh' | 'ko' | 'arabic' | 'thai' | 'devanagari';

interface Face {
  pkg: string;
  /** Inside the package. */
  regular: string;
  bold: string;
  /** What the subtitle file asks for (the names libass finds these faces by). */
  regularName: string;
  boldName: string;
}

const FACES: Record<Exclude<FontScript, 'latin'> | `latin-${RenderFont}`, Face> = {
  'latin-sans': {
    pkg: '@embedpdf/fonts-latin',
    regular: 'fonts/NotoSans-Regular.ttf',
    bold: 'fonts/NotoSans-Bold.ttf',
    regularName: 'Noto Sans',
    boldName: 'Noto Sans Bold',
  },
  'latin-serif': {
    pkg: '@expo-google-fonts/noto-serif',
    regular: '400Regular/NotoSerif_400Regular.ttf',
    bold: '700Bold/NotoSerif_700Bold.ttf',
    regularName: 'Noto Serif',
    boldName: 'Noto Serif Bold',
  },
  ja: {
    pkg: '@embedpdf/fonts-jp',
    regular: 'fonts/NotoSansJP-Regular.otf',
    bold: 'fonts/NotoSansJP-Bold.otf',
    regularName: 'NotoSansJP-Regular',
    boldName: 'NotoSansJP-Bold',
  },
  zh: {
    pkg: '@embedpdf/fonts-sc',
    regular: 'fonts/NotoSansHans-Regular.otf',
    bold: 'fonts/NotoSansHans-Bold.otf',
    regularName: 'NotoSansHans-Regular',
    boldName: 'NotoSansHans-Bold',
  },
  ko: {
    pkg: '@embedpdf/fonts-kr',
    regular: 'fonts/NotoSansKR-Regular.otf',
    bold: 'fonts/NotoSansKR-Bold.otf',
    regularName: 'NotoSansKR-Regular',
    boldName: 'NotoSansKR-Bold',
  },
  arabic: {
    pkg: '@embedpdf/fonts-arabic',
    regular: 'fonts/NotoNaskhArabic-Regular.ttf',
    bold: 'fonts/NotoNaskhArabic-Bold.ttf',
    regularName: 'Noto Naskh Arabic',
    boldName: 'Noto Naskh Arabic Bold',
  },
  thai: {
    pkg: '@expo-google-fonts/noto-sans-thai',
    regular: '400Regular/NotoSansThai_400Regular.ttf',
    bold: '700Bold/NotoSansThai_700Bold.ttf',
    regularName: 'Noto Sans Thai',
    boldName: 'Noto Sans Thai Bold',
  },
  devanagari: {
    pkg: '@expo-google-fonts/noto-sans-devanagari',
    regular: '400Regular/NotoSansDevanagari_400Regular.ttf',
    bold: '700Bold/NotoSansDevanagari_700Bold.ttf',
    regularName: 'Noto Sans Devanagari',
    boldName: 'Noto Sans Devanagari Bold',
  },
};

const require = createRequire(import.meta.url);
const packageDirs = new Map<string, string>();

/** The installed folder of a package (its entry point's nearest package.json of that name). */
function packageDir(pkg: string): string {
  const known = packageDirs.get(pkg);
  if (known) return known;
  let dir = path.dirname(require.resolve(pkg));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === pkg
    )
      break;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`font package ${pkg} is not installed`);
    dir = up;
  }
  packageDirs.set(pkg, dir);
  return dir;
}

function faceOf(script: FontScript, latin: RenderFont): Face {
  return FACES[script === 'latin' ? (`latin-${latin}` as const) : script];
}

/** The PostScript name the subtitle file names for a run of `script`. */
export function fontName(script: FontScript, latin: RenderFont, bold: boolean): string {
  const face = faceOf(script, latin);
  return bold ? face.boldName : face.regularName;
}

/** The files of the faces a render uses. */
export function fontFiles(scripts: Iterable<FontScript>, latin: RenderFont): string[] {
  const files = new Set<string>();
  for (const script of new Set(['latin' as FontScript, ...scripts])) {
    const face = faceOf(script, latin);
    const dir = packageDir(face.pkg);
    files.add(path.join(dir, face.regular));
    files.add(path.join(dir, face.bold));
  }
  return [...files];
}

/**
 * A folder holding links to just the faces a render needs: libass reads every file of its
 * fontsdir into memory, and the CJK faces are 4–5 MB each.
 */
export async function prepareFontsDir(
  dir: string,
  scripts: Iterable<FontScript>,
  latin: RenderFont,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const file of fontFiles(scripts, latin)) await symlink(file, path.join(dir, path.basename(file)));
  return dir;
}

/** Every face, for the test that proves the packages installed what we name. */
export function allFontFiles(): string[] {
  return Object.values(FACES).flatMap((f) => [
    path.join(packageDir(f.pkg), f.regular),
    path.join(packageDir(f.pkg), f.bold),
  ]);
}
