// SPDX-License-Identifier: MIT
/*
 * Globals named like the runtime's internals. A program may define any
 * name outside acl*: linked with libascendcl.a next to lib_names_prog.c,
 * these must not collide with the archive.
 */
int device_set;
int copy_sync(void);
int copy_sync(void)
{
	return device_set;
}
