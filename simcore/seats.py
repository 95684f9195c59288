"""Who sits in a seat: one way, for every seat of every system.

A seat takes

* ``None`` -- the system's built-in agent for that seat;
* a registered policy id of the system (``"astra-agent-v4"``, ``"dominance-peer-v3"``);
* ``"package.module:Attr"`` -- an import path to any of the below;
* a class -- built with the keyword arguments its ``__init__`` names among the
  :class:`~simcore.contract.SeatSetup` fields (``seat``, ``scenario``, ``private``,
  ``rng``, ``client``, ``system``, ``setup`` the whole setup) and the system's own names
  for them (``aliases``: ASTRA's ``domain`` and ``values``, say);
* a factory function -- called the same way;
* an instance -- used as it is;
* a NegMAS negotiator (an ``SAONegotiator`` class, instance or import path) -- seated through
  :mod:`simcore.bridges.negmas` (an optional extra, imported only then), in ASTRA's game.

Whatever it is, the agent's ``reset(setup)`` is called when it has one, and it must have
``act(observation)``, or be an object the system's ``adapt`` accepts (a structured policy
whose decisions the seat's own voice puts into words).  Each failure is one
:class:`~simcore.errors.InputError` naming the argument.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Callable, Mapping, Optional

import attrs

from simcore.argcheck import load_ref
from simcore.contract import SeatSetup
from simcore.errors import InputError, UnknownIdError
from simcore.registry import Spec, is_builtin, registered, resolve

#: the SeatSetup fields a user's class may name in its __init__
SETUP_FIELDS = ("system", "seat", "scenario", "private", "rng", "client")
#: the module that seats a NegMAS negotiator (the optional extra; imported only for one)
NEGMAS_BRIDGE = "simcore.bridges.negmas"


def is_negmas(obj: Any) -> bool:
    """Whether ``obj`` is a NegMAS negotiator class or instance, told by its classes' modules
    (without importing NegMAS)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return any(getattr(c, "__module__", "").split(".")[0] == "negmas" and c.__name__.endswith("Negotiator")
               for c in getattr(cls, "__mro__", ()))


def policy_spec(value: str, name: str, system: str, role: Optional[str] = None) -> Spec:
    """The registry entry ``value`` names, checked to be a policy of ``system`` (and ``role``)."""
    valid = [i for i in registered("policy", system=system)
             if role is None or resolve("policy", i).meta.get("role") in (role, None)]
    try:
        spec = resolve("policy", value)
    except UnknownIdError:
        raise InputError(name, value, f"unknown {system} policy id; valid: {', '.join(valid)} "
                                      "(or package.module:Class, your own agent)") from None
    if spec.meta.get("system") != system or (role is not None and spec.meta.get("role") not in (role, None)):
        raise InputError(name, value, f"is not a {role or 'policy'} of {system} (the {name} seat takes: "
                                      f"{', '.join(valid)}, or package.module:Class)")
    return spec


def build(factory: Callable[..., Any], setup: SeatSetup, aliases: Mapping[str, Any], name: str) -> Any:
    """``factory`` called with the keyword arguments it names among the setup's fields and
    ``aliases``; one that takes ``**kwargs`` gets them all."""
    given = {f: getattr(setup, f) for f in SETUP_FIELDS}
    given["setup"] = setup
    given.update(aliases)
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature: called bare
        params = {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        kwargs = given
    else:
        kwargs = {k: v for k, v in given.items() if k in params}
        missing = [p.name for p in params.values() if p.default is inspect.Parameter.empty
                   and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in kwargs]
        if missing:
            raise InputError(name, getattr(factory, "__qualname__", repr(factory)),
                             f"needs {', '.join(missing)}, which a seat does not give (it gives "
                             f"{', '.join(sorted(given))})")
    try:
        return factory(**kwargs)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(name, getattr(factory, "__qualname__", repr(factory)),
                         f"building it raised {type(exc).__name__}: {exc}") from None


class Voiced:
    """A user's agent whose actions may come without words: ``say(action, setup)``, the system's
    default voice, puts a bare decision into words with the seat's own client and generator (so the
    other seats have words to read) and returns any other action unchanged."""

    def __init__(self, agent: Any, setup: SeatSetup, say: Callable[[Any, SeatSetup], Any]):
        self.agent, self.setup, self.say = agent, setup, say
        self.label = type(agent).__name__  # (errors name the user's agent, not this wrapper)

    def act(self, observation: Any) -> Any:
        return self.say(self.agent.act(observation), self.setup)


@attrs.frozen
class Seated:
    """The agent in a seat, and whether the user put it there."""

    agent: Any
    user: bool


def seat(value: Any, setup: SeatSetup, *, name: str, builtin: Callable[[Optional[Spec]], Any],
         aliases: Mapping[str, Any] = {}, role: Optional[str] = None,
         adapt: Optional[Callable[[Any, SeatSetup], Any]] = None) -> Seated:
    """The agent ``value`` puts in ``setup.seat`` (the module docstring's rules).

    ``builtin(spec)`` builds the system's own agent from a registry entry (``None``: the
    seat's default); ``adapt(obj, setup)`` turns an object without ``act`` that the system
    still seats (a structured policy) into an agent, or returns None; ``name`` is the
    argument's name for errors."""
    user = True
    if value is None:
        agent, user = builtin(None), False
    elif isinstance(value, str) and ":" not in value:
        spec = policy_spec(value, name, setup.system, role)
        if is_builtin("policy", spec.id):
            agent, user = builtin(spec), False
        else:  # registered by a user or a plugin: built like their class, with the entry's kwargs
            agent = build(spec.load(), setup, {**aliases, **spec.kwargs}, name)
    else:
        obj = load_ref(value, name) if isinstance(value, str) else value
        if is_negmas(obj):  # (NegMAS is imported already: obj is one of its negotiators)
            agent = importlib.import_module(NEGMAS_BRIDGE).seat_agent(obj, setup, aliases)
        else:
            made = isinstance(obj, type) or (callable(obj) and not callable(getattr(obj, "act", None)))
            agent = build(obj, setup, aliases, name) if made else obj
    if user:
        if not callable(getattr(agent, "act", None)):
            adapted = adapt(agent, setup) if adapt is not None else None
            if adapted is None:
                raise InputError(name, type(agent).__name__,
                                 f"is not an agent: it has no act(observation) (a seat of {setup.system} takes a "
                                 "registered policy id, package.module:Class, a class, a factory or an instance)")
            agent = adapted
        reset = getattr(agent, "reset", None)
        if callable(reset):
            try:
                reset(setup)
            except Exception as exc:
                raise InputError(name, type(agent).__name__,
                                 f"reset(setup) raised {type(exc).__name__}: {exc}") from None
    return Seated(agent, user)
