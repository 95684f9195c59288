"""Registry entries for the chat backends (loaded by :mod:`simcore.registry`)."""

REGISTRY = [
    dict(kind="backend", id="mock-v1", entry_point="mockllm.mock:MockBackend",
         description="deterministic template backend (tone-graded, seeded noise)"),
    dict(kind="backend", id="mock-exact-v1", entry_point="mockllm.mock:MockBackend",
         kwargs={"exact": True}, description="mock backend with every noise knob at zero"),
    dict(kind="backend", id="adversarial-v1", entry_point="mockllm.adversarial:AdversarialBackend",
         description="fault injection: the exact mock, but a share of answers schema-valid and wrong",
         meta={"fault_injection": True}),
    dict(kind="backend", id="openai-compat-v1", entry_point="mockllm.openai_compat:OpenAICompatBackend",
         description="any OpenAI-compatible /chat/completions server", meta={"network": True}),
]
