"""rllm_verl: the verl side of rllm-ts's training bridge.

Modules: ``conversion`` (rows -> DataProto tensors; torch), ``bridge_client`` (HTTP to rllm-ts; standard library),
``reward`` (``compute_score`` through ``rllm grade``), ``trainer`` and ``main`` (need verl). Import them directly, so
that the client and the reward work where torch or verl are absent.
"""
