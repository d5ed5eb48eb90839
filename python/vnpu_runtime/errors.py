# SPDX-License-Identifier: MIT
"""AclError: an ACL call that returned an error code, as an exception."""
import acl


class AclError(RuntimeError):
    """Raised when an ACL function answers an error code.

    .code is the aclError value, .func the acl.* function that failed,
    .detail libascendcl's message for it (may be empty).
    """

    def __init__(self, code, func, detail=""):
        self.code = code
        self.func = func
        self.detail = detail
        msg = "%s failed: ACL error %d" % (func, code)
        if detail:
            msg += " (%s)" % detail
        super().__init__(msg)


def recent_message(code=None):
    """libascendcl's message for the error code (it keeps a few recent
    ones, one a line: "aclrtFoo: why (error N)"), or ""."""
    try:
        lines = (acl.get_recent_err_msg() or "").strip().splitlines()
    except Exception:  # the message is a nicety, never the error itself
        return ""
    for line in lines:
        if code is not None and line.endswith("(error %d)" % code):
            return line
    return lines[0] if lines else ""


def check(ret, func):
    """Raise AclError unless ret is ACL_SUCCESS."""
    if ret != 0:
        raise AclError(ret, func, recent_message(ret))


def value(pair, func):
    """Unpack pyACL's (value, ret) and raise on an error code."""
    val, ret = pair
    check(ret, func)
    return val
