/* SPDX-License-Identifier: MIT */
/*
 * msprof_tx_<ts>.csv: the msproftx / mstx markers of tx.tsv, written only
 * when there are some. A marker that put a task on a stream
 * (aclprofMarkEx) gets that task's device start and end; others N/A.
 */
#include "export.h"

int ex_msprof_tx(struct ex_data *d)
{
	static const char header[] =
		"Device_id,pid,tid,category,event_type,payload_type,"
		"payload_value,Start_time(us),End_time(us),message_type,"
		"message,domain,Device Start_time(us),Device End_time(us)\n";
	struct ex_out o;
	char b[2][32];
	size_t i;
	int ret;

	if (!d->n_txs)
		return 0;
	ret = ex_out_open(d, &o, "msprof_tx", ".csv");
	if (ret)
		return ret;
	fputs(header, o.f);
	for (i = 0; i < d->n_txs; i++) {
		const struct ex_tx *x = &d->txs[i];
		const struct ex_task *t = x->task >= 0 ? &d->tasks[x->task] :
							 NULL;
		const char *const strs[] = { x->category, x->event_type,
					     x->payload_type, x->payload_value };
		size_t k;

		if (x->dev >= 0)
			fprintf(o.f, "%d,", (int)x->dev);
		else
			fputs("host,", o.f);
		fprintf(o.f, "%llu,%llu", (unsigned long long)x->pid,
			(unsigned long long)x->tid);
		for (k = 0; k < 4; k++) {
			fputc(',', o.f);
			ex_csv_field(o.f, ex_na(strs[k]));
		}
		fprintf(o.f, ",%s,%s,", ex_us(b[0], x->start),
			ex_us(b[1], x->end));
		ex_csv_field(o.f, ex_na(x->message_type));
		fputc(',', o.f);
		ex_csv_field(o.f, x->message);
		fputc(',', o.f);
		ex_csv_field(o.f, ex_na(x->domain));
		if (t)
			fprintf(o.f, ",%s,%s\n", ex_us(b[0], t->start),
				ex_us(b[1], t->end));
		else
			fputs(",N/A,N/A\n", o.f);
	}
	return ex_out_close(d, &o);
}
