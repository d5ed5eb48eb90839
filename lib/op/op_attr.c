// SPDX-License-Identifier: MIT
/*
 * aclopAttr: named, typed attribute values. Setting a name again
 * replaces its value (and type), as CANN's attribute maps do; the
 * description key sorts them by name, so setting order never matters.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/entry_check.h"
#include "op.h"
#include "../core/prof_rt.h"

aclopAttr *aclopCreateAttr(void)
{
	PROF_API();
	return calloc(1, sizeof(aclopAttr));
}

static void attr_clear(struct sop_attr *a)
{
	struct sop_desc one;

	memset(&one, 0, sizeof(one));
	one.attrs[0] = *a;
	one.nattrs = 1;
	sop_desc_free(&one);
	memset(a, 0, sizeof(*a));
}

void aclopDestroyAttr(const aclopAttr *attr)
{
	PROF_API();
	aclopAttr *a = (aclopAttr *)attr;

	if (!a)
		return;
	for (int i = 0; i < a->n; i++)
		attr_clear(&a->a[i]);
	free(a);
}

/* The slot for name (a new or the existing one, cleared), or NULL. */
static struct sop_attr *slot(const char *func, aclopAttr *attr,
			     const char *name, aclError *e)
{
	int i;

	*e = ACL_SUCCESS;
	if (!attr || !name || !*name) {
		*e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				 "attr and attrName must not be NULL or empty");
		return NULL;
	}
	for (i = 0; i < attr->n; i++)
		if (!strcmp(attr->a[i].name, name))
			break;
	if (i == SOP_MAX_ATTRS) {
		*e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				 "an attribute set holds at most %d attributes",
				 SOP_MAX_ATTRS);
		return NULL;
	}
	if (i < attr->n)
		attr_clear(&attr->a[i]);
	attr->a[i].name = strdup(name);
	if (!attr->a[i].name) {
		*e = acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory");
		return NULL;
	}
	if (i == attr->n)
		attr->n++;
	return &attr->a[i];
}

/* Drop a slot whose value could not be stored. */
static aclError unset(aclopAttr *attr, struct sop_attr *a, aclError e)
{
	int i = (int)(a - attr->a);

	attr_clear(a);
	attr->a[i] = attr->a[attr->n - 1];
	memset(&attr->a[attr->n - 1], 0, sizeof(*a));
	attr->n--;
	return e;
}

static aclError set_scalar(const char *func, aclopAttr *attr, const char *name,
			   int kind, int64_t i, float f, const char *s)
{
	aclError e;
	struct sop_attr *a = slot(func, attr, name, &e);

	if (!a)
		return e;
	a->kind = kind;
	a->i = i;
	a->f = f;
	if (kind == SOP_STRING) {
		a->s = s ? strdup(s) : NULL;
		if (!a->s)
			return unset(attr, a, acl_fail_at(func, s ? ACL_ERROR_BAD_ALLOC :
							  ACL_ERROR_INVALID_PARAM,
							  "attrValue must not be NULL"));
	}
	return ACL_SUCCESS;
}

aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue)
{
	PROF_API();
	return set_scalar(__func__, attr, attrName, SOP_BOOL, attrValue != 0, 0, NULL);
}

aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue)
{
	PROF_API();
	return set_scalar(__func__, attr, attrName, SOP_INT, attrValue, 0, NULL);
}

aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue)
{
	PROF_API();
	return set_scalar(__func__, attr, attrName, SOP_FLOAT, 0, attrValue, NULL);
}

aclError aclopSetAttrString(aclopAttr *attr, const char *attrName,
			    const char *attrValue)
{
	PROF_API();
	return set_scalar(__func__, attr, attrName, SOP_STRING, 0, 0, attrValue);
}

aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName,
			      aclDataType attrValue)
{
	PROF_API();
	return set_scalar(__func__, attr, attrName, SOP_DTYPE, attrValue, 0, NULL);
}

/* A list of n values; get(i) gives value i as the kind stores it. */
static aclError set_list(const char *func, aclopAttr *attr, const char *name,
			 int kind, int n, const void *values)
{
	aclError e;
	struct sop_attr *a;

	if (n < 0 || (n && !values))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "numValues %d and values %p do not make a list",
				   n, values);
	a = slot(func, attr, name, &e);
	if (!a)
		return e;
	a->kind = kind;
	a->count = n;
	if (kind == SOP_LIST_FLOAT) {
		a->floats = calloc((size_t)n + 1, sizeof(float));
		if (a->floats && n)
			memcpy(a->floats, values, sizeof(float) * (size_t)n);
		return a->floats ? ACL_SUCCESS :
		       unset(attr, a, acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory"));
	}
	if (kind == SOP_LIST_STRING) {
		const char *const *v = values;

		a->strs = calloc((size_t)n + 1, sizeof(char *));
		for (int i = 0; a->strs && i < n; i++) {
			if (!v[i])
				return unset(attr, a, acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
								  "values[%d] is NULL", i));
			a->strs[i] = strdup(v[i]);
			if (!a->strs[i])
				break;
		}
		if (a->strs && (!n || a->strs[n - 1]))
			return ACL_SUCCESS;
		return unset(attr, a, acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory"));
	}
	a->ints = calloc((size_t)n + 1, sizeof(int64_t));
	if (!a->ints)
		return unset(attr, a, acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory"));
	for (int i = 0; i < n; i++)
		a->ints[i] = kind == SOP_LIST_INT ? ((const int64_t *)values)[i] :
			     kind == SOP_LIST_BOOL ? ((const uint8_t *)values)[i] != 0 :
			     ((const aclDataType *)values)[i];
	return ACL_SUCCESS;
}

aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName,
			      int numValues, const uint8_t *values)
{
	PROF_API();
	return set_list(__func__, attr, attrName, SOP_LIST_BOOL, numValues, values);
}

aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName,
			     int numValues, const int64_t *values)
{
	PROF_API();
	return set_list(__func__, attr, attrName, SOP_LIST_INT, numValues, values);
}

aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName,
			       int numValues, const float *values)
{
	PROF_API();
	return set_list(__func__, attr, attrName, SOP_LIST_FLOAT, numValues, values);
}

aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName,
				int numValues, const char **values)
{
	PROF_API();
	return set_list(__func__, attr, attrName, SOP_LIST_STRING, numValues, values);
}

aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName,
				  int numValues, const aclDataType values[])
{
	PROF_API();
	return set_list(__func__, attr, attrName, SOP_LIST_DTYPE, numValues, values);
}

aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName,
				 int numLists, const int *numValues,
				 const int64_t *const values[])
{
	PROF_API();
	struct sop_attr *a;
	aclError e;
	size_t total = 0, at = 0;

	if (numLists < 0 || (numLists && (!numValues || !values)))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"numLists %d, numValues and values do not make lists",
				numLists);
	for (int i = 0; i < numLists; i++) {
		if (numValues[i] < 0 || (numValues[i] && !values[i]))
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"list %d: numValues %d with values %p", i,
					numValues[i], (const void *)values[i]);
		total += (size_t)numValues[i];
	}
	a = slot(__func__, attr, attrName, &e);
	if (!a)
		return e;
	a->kind = SOP_LIST_LIST_INT;
	a->count = numLists;
	a->lens = calloc((size_t)numLists + 1, sizeof(int));
	a->ints = calloc(total + 1, sizeof(int64_t));
	if (!a->lens || !a->ints)
		return unset(attr, a, acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory"));
	for (int i = 0; i < numLists; i++) {
		a->lens[i] = numValues[i];
		for (int k = 0; k < numValues[i]; k++)
			a->ints[at++] = values[i][k];
	}
	return ACL_SUCCESS;
}
