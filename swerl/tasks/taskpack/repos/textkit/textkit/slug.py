"""URL slugs."""

import re
import unicodedata


def slugify(text, sep="-", max_length=None):
    """Lowercase ASCII words joined by `sep`, with no leading or trailing separator."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = sep.join(words)
    if max_length is not None and len(slug) > max_length:
        slug = slug[:max_length].rstrip(sep)
    return slug
