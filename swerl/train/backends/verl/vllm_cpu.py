"""verl's vLLM worker extension, made to reload weights into CPU vLLM (imports verl and vLLM; runs in vLLM's workers).

verl's collocated sync into vLLM is `ServerAdapter.update_weights` -> `BucketedWeightSender` (on a platform without
CUDA IPC, verl's shared-memory path) -> `vLLMColocateWorkerExtension.update_weights_from_ipc` in each vLLM worker,
which receives the buckets (`BucketedWeightReceiver`), calls `model.load_weights` per bucket, then
`process_weights_after_loading` once. On CPU that load fails: CPU vLLM's `UnquantizedLinearMethod.
process_weights_after_loading` repacks every linear weight into a oneDNN (or SGL) kernel and replaces the
`weight` Parameter by an empty one without a `weight_loader` (`layers/utils.py: dispatch_cpu_unquantized_gemm(...,
remove_weight=True)`), so a second `load_weights` has nowhere to write ("'Parameter' object has no attribute
'weight_loader'", seen in a run).

`CPUReloadWorkerExtension` keeps verl's transfer (sender, shared-memory buckets, receiver, `_update_weights`) and
changes only how the received tensors enter the model: inside vLLM's own layerwise reload
(`initialize_layerwise_reload` ... `finalize_layerwise_reload`, what vLLM's `Worker.reload_weights` does), which
restores each layer's checkpoint-format parameters, loads into them and re-runs that layer's processing (a new
packed kernel). Received tensors are cloned out of the shared-memory bucket, because the layerwise loader buffers a
layer's tensors until the layer is complete and the bucket is reused and then closed.
`settings.cpu_vllm_overrides` names it as vLLM's `worker_extension_cls` (verl forwards `engine_kwargs.vllm`
verbatim, after its own default); nothing in verl or vLLM is patched.
"""

from __future__ import annotations

import torch
from verl.workers.rollout.vllm_rollout.utils import vLLMColocateWorkerExtension


class CPUReloadWorkerExtension(vLLMColocateWorkerExtension):
    """verl's colocated worker extension with CPU-safe weight loading (see the module doc)."""

    def update_weights_from_ipc(self, peft_config: dict | None = None, base_sync_done: bool = False,
                                use_shm: bool = False) -> None:
        """verl's receive loop (`BucketedWeightReceiver`, `_update_weights`) inside vLLM's layerwise reload; LoRA
        and quantized models keep verl's own path (not used on CPU, so not exercised here)."""
        from verl.utils.vllm.vllm_quant_utils import is_quantized_model

        if peft_config or is_quantized_model(self.model_runner.vllm_config):
            return super().update_weights_from_ipc(peft_config=peft_config, base_sync_done=base_sync_done,
                                                   use_shm=use_shm)
        from verl.workers.rollout.vllm_rollout.bucketed_weight_transfer import BucketedWeightReceiver
        from vllm.config import set_current_vllm_config
        from vllm.model_executor.model_loader.reload import (
            finalize_layerwise_reload,
            initialize_layerwise_reload,
        )

        if self.device is None:
            self.device = torch.device("cpu")
        model = self.model_runner.model
        receiver = BucketedWeightReceiver(zmq_handle=self._get_zmq_handle(), device=self.device, use_shm=use_shm)

        def on_bucket(weights: list[tuple[str, torch.Tensor]], is_last: bool) -> None:
            self._update_weights([(name, t.clone()) for name, t in weights], peft_config=None, base_sync_done=True)

        with set_current_vllm_config(self.model_runner.vllm_config):
            initialize_layerwise_reload(model)
            try:
                receiver.receive_weights(on_bucket_received=on_bucket)
            finally:
                finalize_layerwise_reload(model, self.model_runner.model_config)


__all__ = ["CPUReloadWorkerExtension"]
