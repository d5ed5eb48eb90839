# SPDX-License-Identifier: MIT
"""AclError: an ACL call that returned an error code, as an exception."""
import acl


class AclError(RuntimeError):
    """Raised when an ACL function answers an error code.

    .code is the aclError value, .func the acl.* function that failed.
    """

    def __init__(self, code, func, detail=""):
        self.code = code
        self.func = func
        msg = "%s failed: ACL error %d" % (func, code)
        if detail:
            msg += " (%s)" % detail
        super().__init__(msg)


def check(ret, func):
    """Raise AclError unless ret is ACL_SUCCESS."""
    if ret != 0:
        raise AclError(ret, func)


def value(pair, func):
    """Unpack pyACL's (value, ret) and raise on an error code."""
    val, ret = pair
    check(ret, func)
    return val


def recent_message():
    try:
        return acl.get_recent_err_msg() or ""
    except Exception:  # the message is a nicety, never the error itself
        return ""
