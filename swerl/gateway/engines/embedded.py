"""The embedded inference server: a Hugging Face causal LM behind an OpenAI-compatible API (no vLLM).

Logprobs are vLLM's default "raw" ones: log-softmax of the logits before temperature/top-p at the
sampled token, so the trainer recomputes the same quantity from the same weights; with
`allowed_token_ids` they stay the full-vocabulary ones, so ratios compare like with like.
Collocated training shares the module with the trainer: `load_weights` swaps weights between
generations. A request without `seed` draws one from the engine's own seeded generator (never the
caller's global RNG state, which would repeat the same "random" answer per prompt).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from swerl.gateway.engines.openai_server import EngineError, Generation, Sampling, TokenEngine
from swerl.log import get_logger

log = get_logger(__name__)


class EmbeddedEngine(TokenEngine):
    def __init__(self, model: Any, tokenizer: Any, model_name: str = "embedded", default_max_tokens: int = 256,
                 max_context: int | None = None, seed: int = 0) -> None:
        super().__init__(tokenizer, model_name, default_max_tokens)
        self.model = model
        self.rng = random.Random(seed)  # seeds for requests without one (used under self.lock)
        cfg = model.config
        self.max_context = self.max_model_len = max_context or getattr(cfg, "max_position_embeddings", 4096)
        eos = {tokenizer.eos_token_id} if tokenizer.eos_token_id is not None else set()
        cfg_eos = getattr(cfg, "eos_token_id", None)
        eos |= set(cfg_eos if isinstance(cfg_eos, list) else [cfg_eos] if cfg_eos is not None else [])
        self.eos_ids = sorted(eos)
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else self.eos_ids[0]
        # Padded vocabulary rows (the embedding is rounded up) are never valid tokens.
        self.suppress = list(range(len(tokenizer), cfg.vocab_size))

    def generate(self, prompt_ids: list[int], params: Sampling) -> Generation:
        import torch
        from transformers import GenerationConfig

        room = self.max_context - len(prompt_ids)
        if room < 1:  # the client's conversation outgrew the model: a 400 in vLLM's words, never an engine fault
            raise EngineError(400, f"This model's maximum context length is {self.max_context} tokens; the prompt of "
                                   f"{len(prompt_ids)} tokens leaves no room to generate")
        sample = params.temperature > 0
        gc = GenerationConfig(
            max_new_tokens=min(params.max_tokens, room), do_sample=sample,
            temperature=params.temperature if sample else None, top_p=params.top_p if sample else None,
            top_k=params.top_k if sample and params.top_k > 0 else None, eos_token_id=self.eos_ids,
            pad_token_id=self.pad_id, suppress_tokens=self.suppress or None, output_logits=True,
            return_dict_in_generate=True, stop_strings=params.stop or None)
        ids = torch.tensor([prompt_ids], dtype=torch.long)
        processors = [_AllowedTokens(params.allowed_token_ids)] if params.allowed_token_ids else None
        seed = params.seed if params.seed is not None else self.rng.getrandbits(63)
        with torch.random.fork_rng(devices=[]), torch.inference_mode():
            torch.manual_seed(seed)
            out = self.model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=gc,
                                      tokenizer=self.tokenizer if params.stop else None,
                                      logits_processor=processors)
        new = out.sequences[0, len(prompt_ids):].tolist()
        logprobs = [float(torch.log_softmax(out.logits[step][0].float(), dim=-1)[tok]) for step, tok in enumerate(new)]
        stopped = (new and new[-1] in self.eos_ids) or (params.stop and any(s in self._text(new) for s in params.stop))
        return Generation(new, logprobs, "stop" if stopped else "length")

    def load_weights(self, state_dict: dict[str, Any], version: int | None = None) -> int:
        """Swap in new weights between generations (collocated training); returns the new version."""
        import torch

        with self.lock, torch.no_grad():
            self.model.load_state_dict(state_dict, strict=True)
            self.version = self.version + 1 if version is None else version
        log.info("embedded engine weights loaded", version=self.version)
        return self.version


class _AllowedTokens:
    """A logits processor keeping only `allowed` ids (others -inf); `output_logits` still reports raw logits."""

    def __init__(self, allowed: list[int]) -> None:
        self.allowed = sorted(set(allowed))

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch

        keep = [t for t in self.allowed if t < scores.shape[-1]]
        if not keep:
            raise ValueError("allowed_token_ids: no id inside the model's vocabulary")
        masked = torch.full_like(scores, float("-inf"))
        masked[:, keep] = scores[:, keep]
        return masked


class ServedEngine:
    """A `TokenEngine` served over HTTP in a background thread; `weights()` gives the state dict to load."""

    def __init__(self, engine: TokenEngine, weights: Callable[[], dict[str, Any]] | None = None,
                 host: str = "127.0.0.1") -> None:
        from swerl.gateway.server import ServerThread

        self.engine = engine
        self.weights = weights
        self.server = ServerThread(engine.app(), host=host).start()

    def urls(self) -> list[str]:
        return [f"{self.server.url}/v1"]

    def release(self) -> None:
        """Nothing to free: the model stays in (CPU) memory and is idle once the gateway drained."""

    def load_weights(self, version: int) -> None:
        if self.weights is None:  # an engine without weights (a test's scripted one): only the version moves on
            self.engine.version = version
            return
        self.engine.load_weights(self.weights(), version=version)  # type: ignore[attr-defined]

    def busy_seconds(self) -> tuple[float, int]:
        return self.engine.busy_s, self.engine.tokens

    def close(self) -> None:
        self.server.stop()
