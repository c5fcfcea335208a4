import { useEffect, useState } from 'react';

// The setup link as a QR code, drawn in the browser (the secret never goes to a third party).
// `qrcode` is loaded only when a setup starts, so it stays out of every other page's chunk.
export function SetupQrCode({ uri }: { uri: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => qr.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((text) => live && setSvg(text))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [uri]);
  // Without the code the key beside it still works, so a failure is only a hint.
  if (failed) return <p className="text-small text-muted">The QR code could not be drawn; enter the key by hand instead.</p>;
  if (!svg) return <div className="two-factor-qr two-factor-qr--loading" aria-hidden="true" />;
  return <img className="two-factor-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="QR code of the setup link: scan it with your authenticator app" width={176} height={176} />;
}
