// SPDX-License-Identifier: MIT
//
// llm_decode: a small llama-style decoder (RMS norm, RoPE, grouped-query
// attention with a KV cache, SwiGLU feed-forward) with random weights,
// written to and read back from GGUF, run through ggml's public API on
// any backend. It is the end-to-end client of `make llm-check`:
//
//   llm_decode check DIR          greedy-decode the same prompt with f16,
//                                 Q8_0 and Q4_0 weights on CANN0 and on the
//                                 CPU backend; exit 1 unless every token
//                                 sequence is the same
//   llm_decode bench DIR THREADS  prompt processing (512 tokens) and
//                                 generation (128 tokens) on CANN0 and on the
//                                 CPU backend with THREADS threads
//
// It uses no vnpu header: only ggml, as an application would.
#include <ggml.h>
#include <ggml-alloc.h>
#include <ggml-backend.h>
#include <ggml-cpu.h>
#include <gguf.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct hparams {
    int n_vocab, n_embd, n_head, n_head_kv, n_layer, n_ff, n_ctx;
    float eps = 1e-5f, rope_base = 10000.0f;
    int head_dim() const { return n_embd / n_head; }
};

const hparams check_hp = { 256, 128, 4, 2, 2, 384, 96 };
const hparams bench_hp = { 1024, 256, 4, 2, 2, 704, 640 };

// Deterministic weights: a 64-bit LCG, roughly normal by summing four.
struct rng {
    uint64_t s;
    float uniform() {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return (float)((s >> 40) & 0xffffff) / 16777216.0f;
    }
    float normal() {
        return (uniform() + uniform() + uniform() + uniform() - 2.0f) * 1.7320508f;
    }
};

struct layer {
    ggml_tensor *attn_norm, *wq, *wk, *wv, *wo, *ffn_norm, *w_gate, *w_up, *w_down;
};

struct model {
    hparams hp;
    ggml_context *ctx = nullptr;
    ggml_backend_buffer_t buf = nullptr;
    ggml_tensor *tok_embd = nullptr, *out_norm = nullptr, *output = nullptr;
    std::vector<layer> layers;
    // KV cache: per layer [head_dim, n_head_kv, n_ctx] F16.
    ggml_context *kv_ctx = nullptr;
    ggml_backend_buffer_t kv_buf = nullptr;
    std::vector<ggml_tensor *> k_cache, v_cache;
};

// ------------------------------------------------------------ GGUF file --

void put_u32(gguf_context *g, const char *k, int v) { gguf_set_val_u32(g, k, (uint32_t)v); }

// Write a model of weight type @wtype with random weights from @seed.
void write_model(const std::string &path, const hparams &hp, ggml_type wtype, uint64_t seed)
{
    rng r = { seed };
    size_t need = 0;
    const int E = hp.n_embd, F = hp.n_ff, KV = hp.n_head_kv * hp.head_dim();
    auto mat_bytes = [&](int in, int out) { return ggml_row_size(wtype, in) * out + 1024; };
    need += (size_t)E * hp.n_vocab * 4 + 1024 + mat_bytes(E, hp.n_vocab) + E * 4 + 1024;
    need += (size_t)hp.n_layer * (mat_bytes(E, E) * 2 + mat_bytes(E, KV) * 2 + mat_bytes(E, F) * 2 +
                                  mat_bytes(F, E) + 2 * (E * 4 + 1024));
    ggml_init_params ip = { need + 64 * ggml_tensor_overhead(), nullptr, false };
    ggml_context *ctx = ggml_init(ip);
    gguf_context *g = gguf_init_empty();
    gguf_set_val_str(g, "general.architecture", "vnpu-test-llama");
    put_u32(g, "llm.n_vocab", hp.n_vocab);
    put_u32(g, "llm.n_embd", hp.n_embd);
    put_u32(g, "llm.n_head", hp.n_head);
    put_u32(g, "llm.n_head_kv", hp.n_head_kv);
    put_u32(g, "llm.n_layer", hp.n_layer);
    put_u32(g, "llm.n_ff", hp.n_ff);
    put_u32(g, "llm.n_ctx", hp.n_ctx);

    std::vector<float> tmp;
    auto add = [&](const char *name, int in, int out, ggml_type t, float scale, float bias) {
        ggml_tensor *w = ggml_new_tensor_2d(ctx, t, in, out);
        ggml_set_name(w, name);
        tmp.resize((size_t)in * out);
        for (auto &v : tmp)
            v = bias + scale * r.normal();
        if (t == GGML_TYPE_F32)
            memcpy(w->data, tmp.data(), tmp.size() * 4);
        else if (t == GGML_TYPE_F16)
            ggml_fp32_to_fp16_row(tmp.data(), (ggml_fp16_t *)w->data, (int64_t)tmp.size());
        else
            ggml_quantize_chunk(t, tmp.data(), w->data, 0, out, in, nullptr);
        gguf_add_tensor(g, w);
    };
    add("tok_embd", E, hp.n_vocab, GGML_TYPE_F32, 1.0f, 0.0f);
    // The output projection reads the embedding of a fixed permutation of
    // the vocabulary, plus noise: each step has a clear winner (random
    // logits would leave near-ties that rounding alone could flip), and
    // the chain of tokens still depends on every layer's output.
    const std::vector<float> embd = tmp;
    for (int l = 0; l < hp.n_layer; l++) {
        char n[64];
        const float si = 1.0f / std::sqrt((float)E), sf = 1.0f / std::sqrt((float)F);
        snprintf(n, sizeof(n), "blk.%d.attn_norm", l); add(n, E, 1, GGML_TYPE_F32, 0.1f, 1.0f);
        snprintf(n, sizeof(n), "blk.%d.wq", l); add(n, E, E, wtype, si, 0.0f);
        snprintf(n, sizeof(n), "blk.%d.wk", l); add(n, E, KV, wtype, si, 0.0f);
        snprintf(n, sizeof(n), "blk.%d.wv", l); add(n, E, KV, wtype, si, 0.0f);
        snprintf(n, sizeof(n), "blk.%d.wo", l); add(n, E, E, wtype, si, 0.0f);
        snprintf(n, sizeof(n), "blk.%d.ffn_norm", l); add(n, E, 1, GGML_TYPE_F32, 0.1f, 1.0f);
        snprintf(n, sizeof(n), "blk.%d.w_gate", l); add(n, E, F, wtype, si, 0.0f);
        snprintf(n, sizeof(n), "blk.%d.w_up", l); add(n, E, F, wtype, si, 0.0f);
        snprintf(n, sizeof(n), "blk.%d.w_down", l); add(n, F, E, wtype, sf, 0.0f);
    }
    add("out_norm", E, 1, GGML_TYPE_F32, 0.1f, 1.0f);
    {
        ggml_tensor *w = ggml_new_tensor_2d(ctx, wtype, E, hp.n_vocab);
        std::vector<float> out((size_t)E * hp.n_vocab);
        const float s = 1.0f / std::sqrt((float)E);
        ggml_set_name(w, "output");
        for (int j = 0; j < hp.n_vocab; j++) {
            const int from = (int)(((int64_t)j * 37 + 11) % hp.n_vocab);
            for (int i = 0; i < E; i++)
                out[(size_t)j * E + i] = s * (embd[(size_t)from * E + i] + 0.7f * r.normal());
        }
        if (wtype == GGML_TYPE_F16)
            ggml_fp32_to_fp16_row(out.data(), (ggml_fp16_t *)w->data, (int64_t)out.size());
        else
            ggml_quantize_chunk(wtype, out.data(), w->data, 0, hp.n_vocab, E, nullptr);
        gguf_add_tensor(g, w);
    }
    if (!gguf_write_to_file(g, path.c_str(), false)) {
        fprintf(stderr, "cannot write %s\n", path.c_str());
        exit(2);
    }
    gguf_free(g);
    ggml_free(ctx);
}

// Read a GGUF model into a buffer of @backend.
void load_model(model &m, const std::string &path, ggml_backend_t backend)
{
    ggml_context *meta = nullptr;
    gguf_init_params gp = { true, &meta };
    gguf_context *g = gguf_init_from_file(path.c_str(), gp);
    if (!g) {
        fprintf(stderr, "cannot read %s\n", path.c_str());
        exit(2);
    }
    auto u32 = [&](const char *k) { return (int)gguf_get_val_u32(g, gguf_find_key(g, k)); };
    m.hp = { u32("llm.n_vocab"), u32("llm.n_embd"), u32("llm.n_head"), u32("llm.n_head_kv"),
             u32("llm.n_layer"), u32("llm.n_ff"), u32("llm.n_ctx") };
    m.ctx = meta;
    m.buf = ggml_backend_alloc_ctx_tensors(meta, backend);
    FILE *f = fopen(path.c_str(), "rb");
    std::vector<char> data;
    for (int64_t i = 0; i < gguf_get_n_tensors(g); i++) {
        const char *name = gguf_get_tensor_name(g, i);
        ggml_tensor *t = ggml_get_tensor(meta, name);
        data.resize(ggml_nbytes(t));
        fseek(f, (long)(gguf_get_data_offset(g) + gguf_get_tensor_offset(g, i)), SEEK_SET);
        if (fread(data.data(), 1, data.size(), f) != data.size()) {
            fprintf(stderr, "short read in %s\n", path.c_str());
            exit(2);
        }
        ggml_backend_tensor_set(t, data.data(), 0, data.size());
    }
    fclose(f);
    gguf_free(g);
    auto get = [&](const std::string &n) { return ggml_get_tensor(meta, n.c_str()); };
    m.tok_embd = get("tok_embd");
    m.out_norm = get("out_norm");
    m.output = get("output");
    for (int l = 0; l < m.hp.n_layer; l++) {
        std::string p = "blk." + std::to_string(l) + ".";
        m.layers.push_back({ get(p + "attn_norm"), get(p + "wq"), get(p + "wk"), get(p + "wv"),
                             get(p + "wo"), get(p + "ffn_norm"), get(p + "w_gate"), get(p + "w_up"),
                             get(p + "w_down") });
    }
    ggml_init_params ip = { (size_t)(2 * m.hp.n_layer + 4) * ggml_tensor_overhead(), nullptr, true };
    m.kv_ctx = ggml_init(ip);
    for (int l = 0; l < m.hp.n_layer; l++) {
        m.k_cache.push_back(ggml_new_tensor_3d(m.kv_ctx, GGML_TYPE_F16, m.hp.head_dim(), m.hp.n_head_kv, m.hp.n_ctx));
        m.v_cache.push_back(ggml_new_tensor_3d(m.kv_ctx, GGML_TYPE_F16, m.hp.head_dim(), m.hp.n_head_kv, m.hp.n_ctx));
    }
    m.kv_buf = ggml_backend_alloc_ctx_tensors(m.kv_ctx, backend);
    ggml_backend_buffer_clear(m.kv_buf, 0);
}

void free_model(model &m)
{
    ggml_backend_buffer_free(m.kv_buf);
    ggml_free(m.kv_ctx);
    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
}

// --------------------------------------------------------------- graph --

struct batch_graph {
    ggml_context *ctx;
    ggml_cgraph *gf;
    ggml_tensor *tokens, *pos, *mask, *logits;
};

// The graph of @n tokens at positions [past, past + n).
batch_graph build(model &m, int n, int past, bool flash)
{
    const hparams &hp = m.hp;
    const int hd = hp.head_dim(), n_kv = past + n;
    ggml_init_params ip = { 4096 * ggml_tensor_overhead() + ggml_graph_overhead_custom(8192, false), nullptr, true };
    batch_graph b;
    b.ctx = ggml_init(ip);
    ggml_context *c = b.ctx;
    b.gf = ggml_new_graph_custom(c, 8192, false);
    b.tokens = ggml_new_tensor_1d(c, GGML_TYPE_I32, n);
    b.pos = ggml_new_tensor_1d(c, GGML_TYPE_I32, n);
    b.mask = ggml_new_tensor_2d(c, GGML_TYPE_F16, n_kv, n);
    for (ggml_tensor *t : { b.tokens, b.pos, b.mask })
        ggml_set_input(t);
    const float scale = 1.0f / std::sqrt((float)hd);

    ggml_tensor *x = ggml_get_rows(c, m.tok_embd, b.tokens);
    for (int l = 0; l < hp.n_layer; l++) {
        const layer &L = m.layers[l];
        ggml_tensor *cur = ggml_mul(c, ggml_rms_norm(c, x, hp.eps), L.attn_norm);
        ggml_tensor *q = ggml_reshape_3d(c, ggml_mul_mat(c, L.wq, cur), hd, hp.n_head, n);
        ggml_tensor *k = ggml_reshape_3d(c, ggml_mul_mat(c, L.wk, cur), hd, hp.n_head_kv, n);
        ggml_tensor *v = ggml_reshape_3d(c, ggml_mul_mat(c, L.wv, cur), hd, hp.n_head_kv, n);
        q = ggml_rope_ext(c, q, b.pos, nullptr, hd, GGML_ROPE_TYPE_NEOX, hp.n_ctx, hp.rope_base, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
        k = ggml_rope_ext(c, k, b.pos, nullptr, hd, GGML_ROPE_TYPE_NEOX, hp.n_ctx, hp.rope_base, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
        ggml_tensor *kc = m.k_cache[l], *vc = m.v_cache[l];
        ggml_build_forward_expand(b.gf, ggml_cpy(c, k, ggml_view_3d(c, kc, hd, hp.n_head_kv, n, kc->nb[1], kc->nb[2], past * kc->nb[2])));
        ggml_build_forward_expand(b.gf, ggml_cpy(c, v, ggml_view_3d(c, vc, hd, hp.n_head_kv, n, vc->nb[1], vc->nb[2], past * vc->nb[2])));
        ggml_tensor *K = ggml_permute(c, ggml_view_3d(c, kc, hd, hp.n_head_kv, n_kv, kc->nb[1], kc->nb[2], 0), 0, 2, 1, 3);
        ggml_tensor *V = ggml_permute(c, ggml_view_3d(c, vc, hd, hp.n_head_kv, n_kv, vc->nb[1], vc->nb[2], 0), 0, 2, 1, 3);
        ggml_tensor *Q = ggml_permute(c, q, 0, 2, 1, 3);
        if (flash) {
            ggml_tensor *o = ggml_flash_attn_ext(c, Q, K, V, b.mask, scale, 0.0f, 0.0f);
            ggml_flash_attn_ext_set_prec(o, GGML_PREC_F32);
            cur = ggml_reshape_2d(c, o, hp.n_embd, n);
        } else {
            ggml_tensor *kq = ggml_mul_mat(c, K, Q);
            kq = ggml_soft_max_ext(c, kq, b.mask, scale, 0.0f);
            ggml_tensor *vt = ggml_cont(c, ggml_permute(c, V, 1, 0, 2, 3));
            ggml_tensor *kqv = ggml_mul_mat(c, vt, kq);
            cur = ggml_cont_2d(c, ggml_permute(c, kqv, 0, 2, 1, 3), hp.n_embd, n);
        }
        x = ggml_add(c, x, ggml_mul_mat(c, L.wo, cur));
        cur = ggml_mul(c, ggml_rms_norm(c, x, hp.eps), L.ffn_norm);
        cur = ggml_swiglu_split(c, ggml_mul_mat(c, L.w_gate, cur), ggml_mul_mat(c, L.w_up, cur));
        x = ggml_add(c, x, ggml_mul_mat(c, L.w_down, cur));
    }
    x = ggml_mul(c, ggml_rms_norm(c, x, hp.eps), m.out_norm);
    b.logits = ggml_mul_mat(c, m.output, x);
    ggml_set_output(b.logits);
    ggml_build_forward_expand(b.gf, b.logits);
    return b;
}

// Run @tok at positions from @past; the logits of every token go to @out.
void eval(model &m, ggml_backend_t be, ggml_gallocr_t ga, const std::vector<int> &tok, int past, bool flash,
          std::vector<float> *out)
{
    const int n = (int)tok.size(), n_kv = past + n;
    batch_graph b = build(m, n, past, flash);
    if (!ggml_gallocr_alloc_graph(ga, b.gf)) {
        fprintf(stderr, "graph allocation failed\n");
        exit(2);
    }
    std::vector<int> pos(n);
    for (int i = 0; i < n; i++)
        pos[i] = past + i;
    std::vector<ggml_fp16_t> mask((size_t)n_kv * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n_kv; j++)
            mask[(size_t)i * n_kv + j] = ggml_fp32_to_fp16(j <= past + i ? 0.0f : -INFINITY);
    ggml_backend_tensor_set(b.tokens, tok.data(), 0, n * sizeof(int));
    ggml_backend_tensor_set(b.pos, pos.data(), 0, n * sizeof(int));
    ggml_backend_tensor_set(b.mask, mask.data(), 0, mask.size() * sizeof(ggml_fp16_t));
    if (ggml_backend_graph_compute(be, b.gf) != GGML_STATUS_SUCCESS) {
        fprintf(stderr, "graph compute failed\n");
        exit(2);
    }
    if (out) {
        out->resize((size_t)m.hp.n_vocab * n);
        ggml_backend_tensor_get(b.logits, out->data(), 0, out->size() * sizeof(float));
    }
    ggml_free(b.ctx);
}

int argmax(const float *v, int n)
{
    return (int)(std::max_element(v, v + n) - v);
}

ggml_backend_t open_backend(const std::string &name, int threads)
{
    ggml_backend_t be = name == "CPU" ? ggml_backend_cpu_init() : ggml_backend_init_by_name(name.c_str(), nullptr);
    if (!be) {
        fprintf(stderr, "no backend %s\n", name.c_str());
        exit(2);
    }
    if (name == "CPU")
        ggml_backend_cpu_set_n_threads(be, threads);
    return be;
}

// Greedy decoding of @gen tokens after @prompt; returns all tokens and the
// logits of each step (for the comparison's report).
std::vector<int> decode(const std::string &path, const std::string &bename, bool flash, int gen,
                        std::vector<std::vector<float>> &steps)
{
    ggml_backend_t be = open_backend(bename, 2);
    model m;
    load_model(m, path, be);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(be));
    std::vector<int> tok = { 1, 17, 42, 99, 3, 250, 7, 64 };
    std::vector<float> logits;
    eval(m, be, ga, tok, 0, flash, &logits);
    int past = (int)tok.size();
    int next = argmax(logits.data() + (size_t)(past - 1) * m.hp.n_vocab, m.hp.n_vocab);
    steps.push_back(std::vector<float>(logits.end() - m.hp.n_vocab, logits.end()));
    for (int i = 0; i < gen; i++) {
        tok.push_back(next);
        eval(m, be, ga, { next }, past++, flash, &logits);
        steps.push_back(logits);
        next = argmax(logits.data(), m.hp.n_vocab);
    }
    ggml_gallocr_free(ga);
    free_model(m);
    ggml_backend_free(be);
    return tok;
}

const char *tname(ggml_type t) { return ggml_type_name(t); }

// The device backend; LLM_DECODE_DEVICE overrides it (e.g. CPU, to try the
// program on a machine without vnpu).
std::string device()
{
    const char *d = getenv("LLM_DECODE_DEVICE");
    return d && *d ? d : "CANN0";
}

int check(const std::string &dir)
{
    const ggml_type types[] = { GGML_TYPE_F16, GGML_TYPE_Q8_0, GGML_TYPE_Q4_0 };
    int bad = 0;
    for (ggml_type t : types) {
        std::string path = dir + "/check-" + tname(t) + ".gguf";
        write_model(path, check_hp, t, 0x5eed + t);
        for (int flash = 1; flash >= 0; flash--) {
            std::vector<std::vector<float>> sc, sn;
            std::vector<int> cpu = decode(path, "CPU", flash, 24, sc);
            std::vector<int> npu = decode(path, device(), flash, 24, sn);
            float diff = 0.0f, gap = 1e30f;
            for (size_t s = 0; s < std::min(sc.size(), sn.size()); s++) {
                std::vector<float> sorted = sc[s];
                std::sort(sorted.begin(), sorted.end());
                gap = std::min(gap, sorted.back() - sorted[sorted.size() - 2]);
                for (size_t i = 0; i < sc[s].size(); i++)
                    diff = std::max(diff, std::fabs(sc[s][i] - sn[s][i]));
            }
            // Logits must agree too, relative to their spread: the CPU
            // backend rounds activations to Q8_0 for quantised weights,
            // the device keeps them in f16, hence the wider bound there.
            double sum = 0, sq = 0;
            for (float v : sc[0]) {
                sum += v;
                sq += (double)v * v;
            }
            const double mean = sum / sc[0].size();
            const double spread = std::sqrt(sq / sc[0].size() - mean * mean);
            const double tol = t == GGML_TYPE_F16 ? 0.02 : 0.08;
            bool same = cpu == npu, close = diff <= tol * spread;
            bad += !same || !close;
            printf("tokens %s flash=%d cpu  :", tname(t), flash);
            for (int v : cpu)
                printf(" %d", v);
            printf("\ntokens %s flash=%d CANN0:", tname(t), flash);
            for (int v : npu)
                printf(" %d", v);
            printf("\nresult %s flash=%d: %s, logits %s (max |diff| %.4g, limit %.4g; logit spread %.4g, "
                   "smallest top-2 gap on CPU %.4g)\n", tname(t), flash, same ? "same tokens" : "DIFFERENT tokens",
                   close ? "close" : "NOT CLOSE", diff, tol * spread, spread, gap);
            fflush(stdout);
        }
    }
    return bad ? 1 : 0;
}

double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Tokens per second of prompt processing (one batch of @pp tokens) and
// of generation (@tg single-token steps), as llama-bench's pp512/tg128.
void bench_one(const std::string &path, const std::string &bename, int threads, double &pp_tps, double &tg_tps)
{
    const int pp = 512, tg = 128;
    ggml_backend_t be = open_backend(bename, threads);
    model m;
    load_model(m, path, be);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(be));
    std::vector<int> prompt(pp);
    for (int i = 0; i < pp; i++)
        prompt[i] = (i * 7 + 3) % m.hp.n_vocab;
    eval(m, be, ga, std::vector<int>(prompt.begin(), prompt.begin() + 16), 0, true, nullptr); // warm-up
    double t0 = now_s();
    eval(m, be, ga, prompt, 0, true, nullptr);
    pp_tps = pp / (now_s() - t0);
    eval(m, be, ga, { 1 }, 0, true, nullptr); // warm-up of the one-token graph
    t0 = now_s();
    for (int i = 0; i < tg; i++)
        eval(m, be, ga, { (i * 13 + 5) % m.hp.n_vocab }, i, true, nullptr);
    tg_tps = tg / (now_s() - t0);
    ggml_gallocr_free(ga);
    free_model(m);
    ggml_backend_free(be);
}

int bench(const std::string &dir, int threads)
{
    const ggml_type types[] = { GGML_TYPE_F16, GGML_TYPE_Q4_0 };
    printf("# model: %d layers, n_embd %d, %d heads (%d KV), n_ff %d, vocab %d; CPU backend %d threads\n",
           bench_hp.n_layer, bench_hp.n_embd, bench_hp.n_head, bench_hp.n_head_kv, bench_hp.n_ff,
           bench_hp.n_vocab, threads);
    for (ggml_type t : types) {
        std::string path = dir + "/bench-" + tname(t) + ".gguf";
        write_model(path, bench_hp, t, 0xbe7c + t);
        double npp, ntg, cpp, ctg;
        bench_one(path, device(), threads, npp, ntg);
        bench_one(path, "CPU", threads, cpp, ctg);
        printf("pp512 %s: CANN0 %.2f t/s, CPU %.2f t/s, ratio %.3f\n", tname(t), npp, cpp, npp / cpp);
        printf("tg128 %s: CANN0 %.2f t/s, CPU %.2f t/s, ratio %.3f\n", tname(t), ntg, ctg, ntg / ctg);
        fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "check")) {
        std::string dir = argv[2];
        if (system(("mkdir -p '" + dir + "'").c_str()))
            return 2;
        return check(dir);
    }
    if (argc >= 4 && !strcmp(argv[1], "bench")) {
        std::string dir = argv[2];
        if (system(("mkdir -p '" + dir + "'").c_str()))
            return 2;
        return bench(dir, atoi(argv[3]));
    }
    fprintf(stderr, "usage: llm_decode check DIR | llm_decode bench DIR THREADS\n");
    return 2;
}
