import sniffHtmlEncoding from 'html-encoding-sniffer';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The `charset` of a Content-Type header, if it names one. */
const charsetOf = (contentType: string): string | undefined => /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];

/**
 * A page's bytes as text, in the encoding they were written in: a byte-order mark, else the Content-Type's charset,
 * else a `<meta charset>` in the first 1024 bytes (the HTML Standard's sniffing, by jsdom's html-encoding-sniffer),
 * else UTF-8 when the bytes are valid UTF-8 and windows-1252 otherwise (older Spanish sites written in Latin-1 that
 * declare nothing: "Panadería" must not read "PanaderÃ­a").
 */
export function decodePage(body: Buffer, contentType: string): string {
  const encoding = sniffHtmlEncoding(body, {
    transportLayerEncodingLabel: charsetOf(contentType),
    defaultEncoding: isUtf8(body) ? 'UTF-8' : 'windows-1252',
  });
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    // An encoding Node's decoder does not know: the bytes as UTF-8, invalid ones replaced.
    return body.toString('utf8');
  }
}
