import { attachments } from '../../api/endpoints';
import type { Attachment } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useLoad } from '../../components/useLoad';

const SHOWN = /^image\/(jpeg|png|webp|gif|avif)$/;

/**
 * A photo through its signed content link. Only the path and query of the link are used: the app
 * is same-origin by design (img-src 'self'), whatever PUBLIC_URL the service was told.
 */
export function Thumbnail({ attachment }: { attachment: Attachment }) {
  const t = useT();
  const link = useLoad(async () => {
    if (!SHOWN.test(attachment.content_type)) return null;
    const url = new URL((await attachments.get(attachment.id)).content_url, location.origin);
    return url.pathname + url.search;
  }, [attachment.id]);
  if (link.data == null) return <span class="thumb placeholder" aria-hidden="true" />;
  return (
    <img
      class="thumb"
      src={link.data}
      alt={t('files.thumbnail', { name: attachment.filename })}
      width={56}
      height={56}
      loading="lazy"
    />
  );
}
