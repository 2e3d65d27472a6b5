// The text of a PDF the user adds as a source, read in this tab by pdf.js (Mozilla's PDF
// library, pinned in package-lock.json and copied to dist/pdf/pdfjs/ by the
// build; never fetched from a CDN). Loaded only when a PDF is added: the Rust side
// (src/ui/source_files.rs) imports this module through www/boot.js's agoraImport hook.
// Refusals are thrown as sentences the app shows after the file's name.

import { getDocument, GlobalWorkerOptions } from './pdfjs/pdf.min.js';

const here = (path) => new URL(path, import.meta.url).href;
GlobalWorkerOptions.workerSrc = here('./pdfjs/pdf.worker.min.js');

/// The text of each page (lines as pdf.js marks them, pages apart by a blank line), and the
/// title in the document's information, if any.
export async function pdfText(bytes) {
  let doc;
  try {
    doc = await getDocument({
      data: bytes,
      // The page's CSP allows no eval; fonts are not drawn, only their text read.
      isEvalSupported: false,
      disableFontFace: true,
      // Character maps for CJK fonts, and the standard fonts' data (their widths place the
      // spaces between words), beside this file.
      cMapUrl: here('./pdfjs/cmaps/'),
      cMapPacked: true,
      standardFontDataUrl: here('./pdfjs/standard_fonts/'),
      useWorkerFetch: true,
    }).promise;
  } catch (e) {
    if (e && e.name === 'PasswordException') throw 'the PDF is encrypted with a password; save a copy without one and add that.';
    if (e && e.name === 'InvalidPDFException') throw 'this is not a PDF, whatever its name says, or it is damaged.';
    throw `the PDF could not be read (${e && e.message ? e.message : e}).`;
  }
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if (typeof item.str !== 'string') continue;
      text += item.str;
      text += item.hasEOL ? '\n' : '';
    }
    pages.push(text.trim());
    page.cleanup();
  }
  let title = '';
  try {
    const meta = await doc.getMetadata();
    title = (meta && meta.info && typeof meta.info.Title === 'string') ? meta.info.Title : '';
  } catch {}
  await doc.destroy();
  const text = pages.filter((p) => p.length > 0).join('\n\n');
  if (!text.trim()) {
    throw 'the PDF has no text to read: its pages are images (a scan). Run it through text recognition (OCR) first, then add the result.';
  }
  return { text, title, pages: doc.numPages };
}
