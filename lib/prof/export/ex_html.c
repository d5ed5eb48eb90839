/* SPDX-License-Identifier: MIT */
/*
 * timeline_<ts>.html: a page a person opens without a server or network.
 * The data (tracks, boxes, names, the top operators) sits in a JSON
 * <script> element; a small inline script draws it on a canvas (one row
 * per host thread, model, marker thread and device stream), with the
 * track names and the top-operator table as DOM text. Mouse wheel zooms,
 * dragging pans, double click resets, hovering names a box.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define MAX_BOXES 300000

/* Box kinds, for colours: keep in step with the script's colour(). */
enum { K_API, K_MODEL, K_OP, K_OTHER, K_FAILED, K_MARK };

/* Interned strings: an open-addressed table of indexes into names. */
struct names {
	const char **v;
	size_t n;
	size_t *slot;		/* index + 1, 0 empty */
	size_t cap;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static long name_id(struct names *t, const char *s)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024, k;
		size_t *slot = calloc(cap, sizeof(*slot));
		const char **v = realloc(t->v, cap / 2 * sizeof(*v));

		if (!slot || !v) {
			free(slot);
			if (v)
				t->v = v;
			return -1;
		}
		t->v = v;
		for (k = 0; k < t->n; k++) {
			i = hash(v[k]) & (cap - 1);
			while (slot[i])
				i = (i + 1) & (cap - 1);
			slot[i] = k + 1;
		}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	i = hash(s) & (t->cap - 1);
	while (t->slot[i]) {
		if (!strcmp(t->v[t->slot[i] - 1], s))
			return (long)(t->slot[i] - 1);
		i = (i + 1) & (t->cap - 1);
	}
	t->v[t->n] = s;
	t->slot[i] = ++t->n;
	return (long)(t->n - 1);
}

struct page {
	struct ex_data *d;
	FILE *f;
	struct names nm;
	uint64_t t0;
	size_t boxes;
	int first;
	int err;
};

static void box(struct page *p, size_t track, uint64_t start, uint64_t end,
		const char *name, int kind)
{
	char b[2][32];
	long id;

	if (p->boxes >= MAX_BOXES)
		return;
	id = name_id(&p->nm, name);
	if (id < 0) {
		p->err = ENOMEM;
		return;
	}
	start = start > p->t0 ? start - p->t0 : 0;
	end = end > p->t0 ? end - p->t0 : 0;
	fprintf(p->f, "%s[%zu,%s,%s,%ld,%d]", p->first ? "" : ",", track,
		ex_us(b[0], start), ex_us(b[1], end > start ? end - start : 0),
		id, kind);
	p->first = 0;
	p->boxes++;
}

static void track(struct page *p, const char *name, const char *group)
{
	fputs(p->first ? "[" : ",[", p->f);
	ex_json_str(p->f, name);
	fputc(',', p->f);
	ex_json_str(p->f, group);
	fputc(']', p->f);
	p->first = 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted unique host thread ids of API spans (or markers). */
static size_t threads(struct ex_data *d, uint64_t **out, int tx)
{
	size_t n = tx ? d->n_txs : d->n_apis, i, k = 0;
	uint64_t *v = calloc(n + 1, sizeof(*v));

	*out = v;
	if (!v)
		return 0;
	for (i = 0; i < n; i++)
		v[i] = tx ? d->txs[i].tid : d->apis[i].tid;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static size_t find(const uint64_t *v, size_t n, uint64_t x)
{
	const uint64_t *h = bsearch(&x, v, n, sizeof(*v), cmp_u64);

	return h ? (size_t)(h - v) : 0;
}

/* Where each group of tracks starts; the order the page shows them in. */
struct layout {
	uint64_t *host, *tx;
	size_t n_host, n_tx, models, n_models, dev_base;
	size_t *model_of;	/* execution -> track */
	size_t *stream_of;	/* task -> track */
};

static void tracks(struct page *p, struct layout *l)
{
	struct ex_data *d = p->d;
	char name[96], group[48];
	size_t i, t;

	p->first = 1;
	for (i = 0; i < l->n_host; i++) {
		snprintf(name, sizeof(name), "Thread %llu",
			 (unsigned long long)l->host[i]);
		track(p, name, "CANN (host)");
	}
	t = l->n_host;
	for (i = 0; i < d->n_models; i++) {
		const struct ex_model *m = &d->models[i];
		char *s = NULL;

		if (i && m[-1].dev == m->dev && m[-1].model_id == m->model_id) {
			l->model_of[i] = l->model_of[i - 1];
			continue;
		}
		l->model_of[i] = t++;
		snprintf(group, sizeof(group), "Models");
		if (asprintf(&s, "Model %u %s (device %d)", m->model_id,
			     m->name, (int)m->dev) < 0)
			s = NULL;
		track(p, s ? s : "Model", group);
		free(s);
	}
	for (i = 0; i < l->n_tx; i++) {
		snprintf(name, sizeof(name), "msproftx %llu",
			 (unsigned long long)l->tx[i]);
		track(p, name, "msproftx");
		t++;
	}
	for (i = 0; i < d->n_tasks; i++) {
		const struct ex_task *k = &d->tasks[i];

		if (i && k[-1].dev == k->dev && k[-1].queue == k->queue) {
			l->stream_of[i] = l->stream_of[i - 1];
			continue;
		}
		l->stream_of[i] = t++;
		snprintf(name, sizeof(name), "Device %d Stream %u",
			 (int)k->dev, k->queue);
		snprintf(group, sizeof(group), "Ascend Hardware (device %d)",
			 (int)k->dev);
		track(p, name, group);
	}
}

static void boxes(struct page *p, struct layout *l)
{
	struct ex_data *d = p->d;
	size_t i;

	p->first = 1;
	for (i = 0; i < d->n_apis; i++)
		box(p, find(l->host, l->n_host, d->apis[i].tid),
		    d->apis[i].start, d->apis[i].end, d->apis[i].name, K_API);
	for (i = 0; i < d->n_models; i++)
		box(p, l->model_of[i], d->models[i].start, d->models[i].end,
		    d->models[i].name[0] ? d->models[i].name : "model",
		    K_MODEL);
	for (i = 0; i < d->n_txs; i++)
		box(p, l->n_host + l->n_models +
		       find(l->tx, l->n_tx, d->txs[i].tid),
		    d->txs[i].start, d->txs[i].end, d->txs[i].message, K_MARK);
	for (i = 0; i < d->n_tasks; i++) {
		const struct ex_task *t = &d->tasks[i];
		int kind = t->status ? K_FAILED : ex_is_op(t) ? K_OP : K_OTHER;

		box(p, l->stream_of[i], t->start, t->end, ex_task_name(t), kind);
	}
}

static void top_ops(struct page *p)
{
	struct ex_opstat *s;
	size_t i, n, k = 0, order[20];
	uint64_t all = 0;
	char b[2][32];

	if (ex_op_stats(p->d, &s, &n)) {
		p->err = ENOMEM;
		return;
	}
	for (i = 0; i < n; i++)
		all += s[i].total;
	/* The 20 heaviest over all devices (s is per device, heaviest first). */
	while (k < 20 && k < n) {
		size_t best = n, j, m;

		for (j = 0; j < n; j++) {
			for (m = 0; m < k && order[m] != j; m++)
				;
			if (m == k && (best == n || s[j].total > s[best].total))
				best = j;
		}
		order[k++] = best;
	}
	for (i = 0; i < k; i++) {
		const struct ex_opstat *o = &s[order[i]];

		fprintf(p->f, "%s[%d,", i ? "," : "", (int)o->dev);
		ex_json_str(p->f, o->op_type);
		fputc(',', p->f);
		ex_json_str(p->f, o->core);
		fprintf(p->f, ",%llu,%s,%s,%.2f]", (unsigned long long)o->count,
			ex_us(b[0], o->total), ex_us(b[1], o->total / o->count),
			all ? 100.0 * (double)o->total / (double)all : 0.0);
	}
	free(s);
}

static const char style[] =
"body{font:13px sans-serif;margin:8px;color:#222}"
"h1{font-size:16px;margin:4px 0}h2{font-size:14px}"
"#wrap{position:relative;display:flex;border:1px solid #bbb}"
"#labels{width:230px;flex:none;border-right:1px solid #bbb;"
"background:#f4f4f4}"
".group{font-weight:bold;background:#ddd}"
".track-label,.group{height:20px;line-height:20px;padding:0 4px;"
"white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
"#c{flex:auto;display:block;cursor:grab}"
"#tip{position:fixed;display:none;background:#ffe;border:1px solid #886;"
"padding:2px 5px;pointer-events:none;white-space:pre}"
"table{border-collapse:collapse}td,th{border:1px solid #ccc;"
"padding:2px 6px;text-align:right}td.l,th{text-align:left}";

/* The drawing script; D is the data. Kept short and dependency free. */
static const char script[] =
"(function(){\n"
"var D=JSON.parse(document.getElementById('data').textContent);\n"
"var R=20,AX=20,labels=document.getElementById('labels');\n"
"var c=document.getElementById('c'),g=c.getContext('2d');\n"
"var tip=document.getElementById('tip');\n"
"var rows=[],last=null;\n"
"labels.appendChild(Object.assign(document.createElement('div'),"
"{className:'group',textContent:'time'}));\n"
"D.tracks.forEach(function(t,i){\n"
" if(t[1]!==last){last=t[1];rows.push({group:t[1]});}\n"
" rows.push({track:i,name:t[0]});});\n"
"var rowOf={};rows.forEach(function(r,i){\n"
" var e=document.createElement('div');\n"
" if(r.group!==undefined){e.className='group';e.textContent=r.group;}\n"
" else{e.className='track-label';e.textContent=r.name;rowOf[r.track]=i;}\n"
" labels.appendChild(e);});\n"
"var byTrack=D.tracks.map(function(){return [];}),end=0;\n"
"D.boxes.forEach(function(b){byTrack[b[0]].push(b);"
"end=Math.max(end,b[1]+b[2]);});\n"
"if(end<=0)end=1;\n"
"byTrack.forEach(function(bs){var st=[];"
"bs.sort(function(a,b){return a[1]-b[1]||b[2]-a[2];});"
"bs.forEach(function(b){while(st.length&&st[st.length-1]<=b[1])st.pop();"
"b[5]=Math.min(st.length,4);st.push(b[1]+b[2]);});});\n"
"var x0=0,sc=1;\n"
"function fit(){x0=0;sc=c.width/end;}\n"
"function colour(b){var k=b[4];"
"if(k==1)return '#b9a3d6';if(k==4)return '#d62728';if(k==5)return '#e8a33d';"
"if(k==3)return '#9aa79a';var s=D.names[b[3]],h=0;"
"for(var i=0;i<s.length;i++)h=(h*31+s.charCodeAt(i))%360;"
"return k==0?'hsl('+(200+h%60)+',35%,'+(70-8*b[5])+'%)':"
"'hsl('+h+',62%,56%)';}\n"
"function label(t,step){if(step>=1e6)return +(t/1e6).toFixed(6)+' s';"
"if(step>=1e3)return +(t/1e3).toFixed(3)+' ms';return +t.toFixed(3)+' \\u00b5s';}\n"
"function draw(){\n"
" g.fillStyle='#fff';g.fillRect(0,0,c.width,c.height);\n"
" rows.forEach(function(r,i){if(r.group!==undefined){g.fillStyle='#eee';"
"g.fillRect(0,AX+i*R,c.width,R);}});\n"
" var raw=120/sc,step=Math.pow(10,Math.floor(Math.log10(raw)));\n"
" if(raw/step>5)step*=10;else if(raw/step>2)step*=5;"
"else if(raw/step>1)step*=2;\n"
" g.fillStyle='#444';g.font='11px sans-serif';\n"
" for(var t=Math.ceil(x0/step)*step;(t-x0)*sc<c.width;t+=step){\n"
"  var x=(t-x0)*sc;g.fillRect(x,AX-6,1,6);"
"g.fillText(label(t,step),x+2,AX-8);}\n"
" byTrack.forEach(function(bs,ti){var y=AX+rowOf[ti]*R+2;\n"
"  bs.forEach(function(b){var x=(b[1]-x0)*sc,w=Math.max(b[2]*sc,1);\n"
"   if(x>c.width||x+w<0)return;g.fillStyle=colour(b);"
"var dy=3*b[5];g.fillRect(x,y+dy,w>3?w-1:w,R-4-dy);\n"
"   if(w>40){g.save();g.beginPath();g.rect(x,y+dy,w,R-4-dy);g.clip();"
"g.fillStyle='#000';g.fillText(D.names[b[3]],x+2,y+12);g.restore();}});});\n"
" document.body.setAttribute('data-rendered',String(D.boxes.length));}\n"
"function size(){c.width=Math.max(200,c.parentNode.clientWidth-232);"
"c.height=AX+rows.length*R;}\n"
"size();fit();draw();\n"
"window.addEventListener('resize',function(){size();fit();draw();});\n"
"c.addEventListener('wheel',function(e){e.preventDefault();"
"var mx=e.offsetX,t=x0+mx/sc,f=e.deltaY<0?1.25:0.8;sc*=f;"
"x0=t-mx/sc;draw();},{passive:false});\n"
"var drag=null;c.addEventListener('mousedown',function(e){"
"drag={x:e.clientX,x0:x0};c.style.cursor='grabbing';});\n"
"window.addEventListener('mouseup',function(){drag=null;"
"c.style.cursor='grab';});\n"
"c.addEventListener('dblclick',function(){fit();draw();});\n"
"c.addEventListener('mousemove',function(e){\n"
" if(drag){x0=drag.x0-(e.clientX-drag.x)/sc;draw();return;}\n"
" var r=rows[Math.floor((e.offsetY-AX)/R)],t=x0+e.offsetX/sc,hit=null;\n"
" if(r&&r.track!==undefined)byTrack[r.track].forEach(function(b){"
"if(t>=b[1]&&t<=b[1]+Math.max(b[2],2/sc)&&(!hit||b[5]>=hit[5]))hit=b;});\n"
" if(!hit){tip.style.display='none';c.title='';return;}\n"
" var s=D.names[hit[3]]+'\\n'+r.name+'\\nstart '+hit[1].toFixed(3)+"
"' \\u00b5s, duration '+hit[2].toFixed(3)+' \\u00b5s';\n"
" c.title=s;tip.textContent=s;tip.style.display='block';"
"tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';});\n"
"c.addEventListener('mouseleave',function(){tip.style.display='none';});\n"
"var tb=document.getElementById('top');\n"
"D.top.forEach(function(o,i){var tr=tb.insertRow();"
"[i+1,o[0],o[1],o[2],o[3],o[4],o[5],o[6]].forEach(function(v,j){"
"var td=tr.insertCell();td.textContent=v;if(j==2||j==3)td.className='l';});});\n"
"var lb=document.getElementById('long');\n"
"D.boxes.slice().sort(function(a,b){return b[2]-a[2];}).slice(0,15)"
".forEach(function(b,i){var tr=lb.insertRow();"
"[i+1,D.names[b[3]],D.tracks[b[0]][0],b[1].toFixed(3),b[2].toFixed(3)]"
".forEach(function(v,j){var td=tr.insertCell();td.textContent=v;"
"if(j==1||j==2)td.className='l';});});\n"
"document.getElementById('info').textContent=D.app+' \u2014 '+"
"D.boxes.length+' boxes on '+D.tracks.length+' tracks';\n"
"document.body.setAttribute('data-ready','1');\n"
"})();\n";

static void head(struct page *p)
{
	struct ex_data *d = p->d;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<title>vnpu timeline</title>\n<style>", p->f);
	fputs(style, p->f);
	fputs("</style></head>\n<body>\n<h1 id=\"title\">vnpu timeline",
	      p->f);
	fprintf(p->f, " %s</h1>\n<div id=\"info\"></div>\n", d->stamp);
	fputs("<p>Wheel: zoom. Drag: pan. Double click: fit. Hover a box for "
	      "its name and duration.</p>\n<div id=\"wrap\"><div id=\"labels\">"
	      "</div><canvas id=\"c\" height=\"100\"></canvas></div>\n"
	      "<div id=\"tip\"></div>\n<h2>Top operators by total time</h2>\n"
	      "<table id=\"top\"><tr><th>#</th><th>Device</th><th>OP Type</th>"
	      "<th>Core Type</th><th>Count</th><th>Total (&micro;s)</th>"
	      "<th>Avg (&micro;s)</th><th>Share (%)</th></tr></table>\n"
	      "<h2>Longest tasks and calls</h2>\n<table id=\"long\"><tr>"
	      "<th>#</th><th>Name</th><th>Track</th><th>Start (&micro;s)</th>"
	      "<th>Duration (&micro;s)</th></tr></table>\n",
	      p->f);
}

int ex_html(struct ex_data *d)
{
	struct page p = { .d = d };
	struct layout l = { 0 };
	struct ex_out o;
	size_t i;
	int ret;

	p.t0 = d->start_ns;
	for (i = 0; i < d->n_apis; i++)
		if (d->apis[i].start < p.t0)
			p.t0 = d->apis[i].start;
	for (i = 0; i < d->n_tasks; i++)
		if (d->tasks[i].start < p.t0)
			p.t0 = d->tasks[i].start;
	l.n_host = threads(d, &l.host, 0);
	l.n_tx = threads(d, &l.tx, 1);
	l.model_of = calloc(d->n_models + 1, sizeof(size_t));
	l.stream_of = calloc(d->n_tasks + 1, sizeof(size_t));
	if (!l.host || !l.tx || !l.model_of || !l.stream_of) {
		ret = ex_fail(d, ENOMEM, "out of memory");
		goto out;
	}
	ret = ex_out_open(d, &o, "timeline", ".html");
	if (ret)
		goto out;
	p.f = o.f;
	head(&p);
	fputs("<script id=\"data\" type=\"application/json\">\n{\"app\":",
	      p.f);
	ex_json_str(p.f, d->app ? d->app : "");
	fputs(",\n\"tracks\":[", p.f);
	tracks(&p, &l);
	/* Count the model tracks: box() of markers needs their base. */
	for (i = 0; i < d->n_models; i++)
		if (!i || l.model_of[i] != l.model_of[i - 1])
			l.n_models++;
	fputs("],\n\"boxes\":[", p.f);
	boxes(&p, &l);
	fputs("],\n\"names\":[", p.f);
	for (i = 0; i < p.nm.n; i++) {
		if (i)
			fputc(',', p.f);
		ex_json_str(p.f, p.nm.v[i]);
	}
	fputs("],\n\"top\":[", p.f);
	top_ops(&p);
	fputs("]}\n</script>\n<script>\n", p.f);
	fputs(script, p.f);
	fputs("</script>\n</body></html>\n", p.f);
	if (p.err) {
		ex_out_abort(&o);
		ret = ex_fail(d, p.err, "timeline: out of memory");
	} else {
		ret = ex_out_close(d, &o);
	}
out:
	free(l.host);
	free(l.tx);
	free(l.model_of);
	free(l.stream_of);
	free(p.nm.v);
	free(p.nm.slot);
	return ret;
}
