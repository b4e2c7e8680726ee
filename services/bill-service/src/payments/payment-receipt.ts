/** A payment's PDF receipt (GET /payments/:id/generate/pdf), drawn with pdf-lib. */
import { PageSizes, PDFDocument, rgb, StandardFonts, type PDFFont } from "pdf-lib";
import type { PaymentRecord } from "../domain/payment-record";
import { receiptOf } from "../domain/receipt";

const MARGIN = 50;
const VALUE_X = 200;
const SIZE = 10;
const LINE = 16;
const TITLE_SIZE = 16;
const GREY = rgb(0.35, 0.35, 0.35);

/** The standard fonts encode WinAnsi only: any other character (from a reference, say) is printed as `?`. */
function printable(text: string, font: PDFFont): string {
  const known = new Set(font.getCharacterSet());
  return [...text].map((c) => (known.has(c.codePointAt(0)!) ? c : "?")).join("");
}

/** The text cut into lines no wider than `width`. */
function wrap(text: string, font: PDFFont, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const c of text) {
    if (line && font.widthOfTextAtSize(line + c, SIZE) > width) {
      lines.push(line);
      line = "";
    }
    line += c;
  }
  return [...lines, line];
}

/**
 * The receipt as PDF bytes: one A4 page, the document's title and subject set, and its dates the payment's, so the
 * same payment always gives the same bytes.
 */
export async function paymentReceiptPdf(payment: PaymentRecord): Promise<Uint8Array> {
  const receipt = receiptOf(payment);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const [regular, bold] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
  ]);
  doc.setTitle(receipt.title);
  doc.setSubject(receipt.subject);
  doc.setAuthor("Cardhold");
  doc.setCreator("Cardhold bill-service");
  doc.setProducer("Cardhold bill-service (pdf-lib)");
  doc.setCreationDate(new Date(payment.createdAt));
  doc.setModificationDate(new Date(payment.updatedAt));

  const page = doc.addPage(PageSizes.A4);
  const [width, height] = PageSizes.A4;
  let y = height - MARGIN - TITLE_SIZE;
  page.drawText(printable(receipt.title, bold), { x: MARGIN, y, size: TITLE_SIZE, font: bold });
  y -= 2 * LINE;
  for (const [label, value] of receipt.lines) {
    page.drawText(label, { x: MARGIN, y, size: SIZE, font: regular, color: GREY });
    for (const part of wrap(printable(value, regular), regular, width - MARGIN - VALUE_X)) {
      page.drawText(part, { x: VALUE_X, y, size: SIZE, font: regular });
      y -= LINE;
    }
  }
  return doc.save();
}
