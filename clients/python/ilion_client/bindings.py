"""Finding the Python bindings generated from idl/cassandra.thrift (the 0.6 API) or
idl/cassandra-20.thrift (the later API).

The bindings are never committed: they come from the Thrift compiler at run time. `load()`
looks for them in this order and imports the first it finds:

1. the directory given to `load(path)` or in the ILION_GEN_PY environment variable
   (ILION_GEN_PY20 for the later API), which must contain the generated `cassandra` package
   (the `-out` directory of `thrift -gen py`);
2. a cache directory, $XDG_CACHE_HOME/ilion (default ~/.cache/ilion), holding bindings made
   earlier from the same IDL text;
3. otherwise it runs `thrift -gen py` on the IDL (ILION_IDL, default idl/cassandra.thrift of
   this repository; for the later API always idl/cassandra-20.thrift) into that cache, then
   imports from there.

Both IDLs make a package named `cassandra`, so one process uses one API.

The cache directory is named after a hash of the IDL, so an edited IDL gets fresh bindings.
"""

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from types import SimpleNamespace

_HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_IDL = os.path.normpath(os.path.join(_HERE, "..", "..", "..", "idl", "cassandra.thrift"))
LATER_IDL = os.path.normpath(os.path.join(_HERE, "..", "..", "..", "idl", "cassandra-20.thrift"))

_loaded = None
_loaded_api = None


class BindingsError(RuntimeError):
    """The generated bindings could not be found or made."""


def idl_path():
    return os.environ.get("ILION_IDL", DEFAULT_IDL)


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ilion")


def generate(out_dir, idl=None):
    """Runs `thrift -gen py -out OUT_DIR IDL`; raises BindingsError with the reason."""
    idl = idl or idl_path()
    if shutil.which("thrift") is None:
        raise BindingsError("the Thrift compiler `thrift` is not installed "
                            "(Debian/Ubuntu: apt-get install thrift-compiler)")
    if not os.path.exists(idl):
        raise BindingsError(f"IDL not found at {idl}; set ILION_IDL")
    os.makedirs(out_dir, exist_ok=True)
    done = subprocess.run(["thrift", "-gen", "py", "-out", out_dir, idl],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise BindingsError(f"thrift -gen py failed:\n{done.stderr}")
    return out_dir


def _cached(idl):
    with open(idl, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    target = os.path.join(cache_root(), f"gen-py-{digest}")
    if not os.path.isdir(os.path.join(target, "cassandra")):
        os.makedirs(cache_root(), exist_ok=True)
        # Generate beside the target and rename, so a concurrent user never sees half a package.
        scratch = tempfile.mkdtemp(prefix="gen-py-", dir=cache_root())
        generate(scratch, idl)
        try:
            os.rename(scratch, target)
        except OSError:  # someone else won the race; theirs is as good as ours
            shutil.rmtree(scratch, ignore_errors=True)
    return target


def load(path=None, api="0.6"):
    """Imports the generated modules of `api` ("0.6" or "later") and returns them as a
    namespace.

    The namespace has `Cassandra` (the service: `Cassandra.Client`), `ttypes` (structs,
    enums, exceptions) and `constants` (`constants.VERSION`). Later calls return the
    same namespace whatever `path` says: Python can hold only one `cassandra` package, so
    asking for the other API afterwards raises BindingsError.
    """
    global _loaded, _loaded_api
    if _loaded is not None:
        if api != _loaded_api:
            raise BindingsError(f"this process already uses the {_loaded_api} API's bindings; "
                                f"both are the package `cassandra`, so use the {api} API from "
                                "another process")
        return _loaded
    if api == "later":
        directory = path or os.environ.get("ILION_GEN_PY20") or _cached(LATER_IDL)
    else:
        directory = path or os.environ.get("ILION_GEN_PY") or _cached(idl_path())
    if not os.path.isdir(os.path.join(directory, "cassandra")):
        raise BindingsError(f"no generated `cassandra` package in {directory}")
    if directory not in sys.path:
        sys.path.insert(0, directory)
    try:
        modules = SimpleNamespace(
            Cassandra=importlib.import_module("cassandra.Cassandra"),
            ttypes=importlib.import_module("cassandra.ttypes"),
            constants=importlib.import_module("cassandra.constants"),
            directory=directory,
        )
    except ImportError as e:
        raise BindingsError(f"could not import the bindings from {directory}: {e}") from e
    _loaded, _loaded_api = modules, api
    return modules
