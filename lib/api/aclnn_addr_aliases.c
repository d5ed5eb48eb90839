/* SPDX-License-Identifier: MIT */
/*
 * CANN exports the executor address setters twice, once with a capital
 * "Acl". The capitalised names forward to the ACL ones, so both always
 * behave the same.
 */
#include "aclnn/acl_meta.h"

aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
				  aclTensor *tensor, void *addr)
{
	return aclSetInputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
				   aclTensor *tensor, void *addr)
{
	return aclSetOutputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetTensorAddr(aclOpExecutor *executor, const size_t index,
			     aclTensor *tensor, void *addr)
{
	return aclSetTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
					 const size_t relativeIndex,
					 aclTensorList *tensors, void *addr)
{
	return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex,
					    tensors, addr);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor,
					  size_t irIndex,
					  const size_t relativeIndex,
					  aclTensorList *tensors, void *addr)
{
	return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex,
					     tensors, addr);
}

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
				    const size_t relativeIndex,
				    aclTensorList *tensors, void *addr)
{
	return aclSetDynamicTensorAddr(executor, irIndex, relativeIndex, tensors,
				       addr);
}
