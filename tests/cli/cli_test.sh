#!/usr/bin/env bash
# The CLI's contract: JSON in (argument or stdin), JSON out, exit 2 with {"error": ...} on bad input.
set -u
cli=${1:?usage: cli_test.sh PATH_TO_KVCACHE}
passed=0; failed=0
check() {  # check NAME EXPECTED_EXIT JQ_LIKE_PYTHON_EXPR -- ARGS...
  local name=$1 want_exit=$2 expr=$3; shift 4
  local out status
  out=$("$@" 2>/dev/null); status=$?
  if [ "$status" -eq "$want_exit" ] && printf '%s' "$out" | python3 -c "import json,sys; r=json.load(sys.stdin); sys.exit(0 if ($expr) else 1)"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL: $name (exit $status)"; printf '%s\n' "$out" | head -5
  fi
}
check "defaults from an empty scenario" 0 "r['running'] == 32 and r['scenario']['max_num_seqs'] == 1024 and r['engine'] == 'V1'" -- "$cli" --scenario '{}'
check "scenario on stdin" 0 "r['scenario']['prompt_tokens'] == 32768 and r['binding_limit'] == 'kv_pool'" -- bash -c "echo '{\"prompt_tokens\": 32768}' | '$cli'"
check "empty stdin means defaults" 0 "r['scenario']['model'] == 'Qwen3-8B'" -- bash -c "'$cli' < /dev/null"
check "every result field of the contract" 0 "all(k in r for k in ['kv_bytes_per_token','params','weight_bytes','activation_bytes','budget_bytes','kv_pool_bytes','num_gpu_blocks','available_kv_cache_bytes','non_torch_bytes','cuda_graph_bytes','startup_error','visible_memory_bytes','bytes_per_sequence','max_resident_sequences','running','waiting','binding_limit','decode_bytes_per_step','decode_step_s','decode_memory_s','decode_compute_s','decode_tokens_per_s','weight_share','decode_bound','ttft_s','prefill_bound','kv_cache_tokens','max_concurrency','log'])" -- "$cli" --scenario '{}'
check "a model config.json as the model" 0 "r['params'] == 8030261248" -- "$cli" --scenario '{"model_config": {"num_hidden_layers": 32, "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072}}'
check "1e30 tokens" 2 "r['error']['field'] == 'prompt_tokens' and r['error']['code'] == 'out_of_range'" -- "$cli" --scenario '{"prompt_tokens": 1e30}'
check "zero heads" 2 "r['error']['field'] == 'model_config.num_attention_heads'" -- "$cli" --scenario '{"model_config": {"num_hidden_layers": 2, "hidden_size": 64, "intermediate_size": 64, "num_attention_heads": 0, "vocab_size": 10}}'
check "malformed JSON" 2 "r['error']['code'] == 'malformed_json'" -- "$cli" --scenario '{"prompt_tokens": '
check "unknown GPU" 2 "'H100' in r['error']['message'] and r['error']['field'] == 'gpu'" -- "$cli" --scenario '{"gpu": "V100"}'
check "an engine refusal is a result, exit 0" 0 "r['status'] == 'engine_refused' and r['startup_error']['kind'] == 'max_model_len_does_not_fit' and 'estimated maximum model length' in r['startup_error']['message']" -- "$cli" --scenario '{"model": "Qwen3-32B"}'
check "a custom GPU" 0 "r['gpu']['id'] == 'custom' and r['visible_memory_bytes'] > 0" -- "$cli" --scenario '{"gpu_config": {"memory_gib": 48, "hbm_tb_per_s": 0.96, "bf16_dense_tflops": 181}}'
check "batch sweep" 0 "r['pool_limit'] > 32 and r['points'][0]['batch'] == 1" -- "$cli" --sweep batch --scenario '{}'
check "tensor-parallel sweep" 0 "[p['tensor_parallel_size'] for p in r] == [1, 2, 4, 8]" -- "$cli" --sweep tp --scenario '{}'
check "catalog: at least 15 models and 15 GPUs" 0 "len(r['models']) >= 15 and len(r['gpus']) >= 15 and r['models'][0]['id'] == 'Qwen3-8B'" -- "$cli" --catalog
check "plan: a target that is met" 0 "r['met'] and r['candidates'][0]['command_line'].startswith('vllm serve Qwen/Qwen3-32B') and all(c['margins']['running'] == c['users_per_replica'] and c['served']['tpot_s']['p50'] <= 0.05 for c in r['candidates']) and len(r['pareto']) >= 2" -- "$cli" --plan '{"model": "Qwen3-32B", "gpu": "H100", "gpu_count": 4, "users": 64, "prompt_tokens": 4096, "output_tokens": 512, "itl_s": 0.05}'
check "plan: a rate, percentile objectives and a price" 0 "r['met'] and all(c['served']['ttft_s']['p99'] <= 1.0 and c['served']['tpot_s']['p99'] <= 0.05 and c['served']['cost']['per_million_output_tokens'] > 0 for c in r['candidates'])" -- "$cli" --plan '{"model": "Qwen3-8B", "gpu": "H100", "gpu_count": 8, "rate_per_s": 20, "prompt_tokens": 2000, "output_tokens": 300, "ttft_p99_s": 1.0, "tpot_p99_s": 0.05, "gpu_hour_price": 2.5}'
check "plan: bad input exits 2" 2 "r['error']['field'] == 'gpu_count' and r['error']['code'] == 'out_of_range'" -- bash -c "echo '{\"gpu_count\": 1e30}' | '$cli' --plan"
check "simulate: a chat workload" 0 "r['finished'] == 300 and r['metrics']['vllm:num_preemptions_total'] == r['preemptions'] and len(r['stats_lines']) >= 1 and r['stats_lines'][0].startswith('Engine 000: Avg prompt throughput')" -- "$cli" --simulate '{"workload": "chat", "rate_per_s": 4, "requests": 300}' --stats-lines --scenario '{}'
check "simulate: a rate out of range" 2 "r['error']['field'] == 'rate_per_s'" -- "$cli" --simulate '{"rate_per_s": 1e30}'
check "serving pays for prefill" 0 "abs(r['prompt_tokens_per_s'] - r['generation_tokens_per_s'] * 4096 / 256) < 1e-6 * r['prompt_tokens_per_s'] and r['generation_tokens_per_s'] < r['decode_tokens_per_s']" -- "$cli" --scenario '{"concurrent_requests": 256}'
logs="$(dirname "$0")/../validation/startup_logs.json"
check "a real start-up log explained" 0 "r['scenario']['model'] == 'Qwen3-30B-A3B' and any(t['term'] == 'GPU KV cache size' and t['logged'] == 168288 for t in r['terms'])" -- bash -c "python3 -c \"import json; print('\\n'.join([s for s in json.load(open('$logs'))['startups'] if s['id'] == 'planner-h100-qwen3-30b-a3b'][0]['log_lines']))\" | '$cli' --explain-log"
check "a docker compose paste naming no model: explained, its candidates listed" 0 "r['scenario'] is None and r['model_inference']['candidates'][0]['model'] == 'Llama-3.1-8B' and [t['logged'] for t in r['terms']] == [14.99, 158656, 4.84]" -- bash -c "printf 'qwen3-1  | INFO Model loading took 14.99 GiB and 5.1 seconds\\nqwen3-1  | INFO GPU KV cache size: 158,656 tokens\\nqwen3-1  | INFO Maximum concurrency for 32,768 tokens per request: 4.84x\\n' | '$cli' --explain-log"
check "a text with no vLLM line" 2 "r['error']['field'] == 'log'" -- bash -c "echo 'hello world' | '$cli' --explain-log"
check "a model name that is not UTF-8: written with U+FFFD, not a crash of the JSON writer" 0 "r['terms'][0]['logged'] == 100 and any('someone/\\ufffdbad-7b' in a for a in r['assumptions'])" -- bash -c "printf \"INFO non-default args: {'model': 'someone/\\xffbad-7b'}\\nINFO GPU KV cache size: 100 tokens\\n\" | '$cli' --explain-log"
check "a 5 MiB log is refused by its size" 2 "r['error']['field'] == 'log' and 'at most 4,194,304' in r['error']['message']" -- bash -c "head -c 5242880 /dev/zero | tr '\\0' x | '$cli' --explain-log"
deep=$(mktemp)
python3 -c "print('{\"model_config\": ' + '{\"a\": ' * 58300 + '1' + '}' * 58301)" >"$deep"  # 350 KB, under the 1 MiB cap
check "a config.json nested 58,300 deep is refused by name, not a crash" 2 "r['error']['code'] == 'out_of_range' and '64 deep' in r['error']['message']" -- bash -c "'$cli' < '$deep'"
check "a plan target nested 58,300 deep too" 2 "'64 deep' in r['error']['message']" -- bash -c "'$cli' --plan < '$deep'"
given=$(python3 -c "print('{\"model_config\": ' + '{\"a\": ' * 18000 + '1' + '}' * 18001)")  # an argument holds 128 KiB at most
check "a log's given scenario nested 18,000 deep too" 2 "'64 deep' in r['error']['message']" -- bash -c "echo 'INFO GPU KV cache size: 90,000 tokens' | '$cli' --explain-log --scenario '$given'"
check "validation data nested 58,300 deep too" 2 "'64 deep' in r['error']['message']" -- bash -c "'$cli' --validate-timing < '$deep'"
python3 -c "print('{\"model\": \"' + 'x' * 1000000 + '\"}')" >"$deep"  # under the 1 MiB cap
check "an unknown model name of a megabyte is echoed as its first characters" 2 "r['error']['field'] == 'model' and len(r['error']['message']) < 2000 and 'xxx...' in r['error']['message']" -- bash -c "'$cli' < '$deep'"
python3 -c "print('{\"model\": \"' + 'x' * 10000000 + '\"}')" >"$deep"
check "one of ten megabytes is refused by its size, unread" 2 "r['error']['field'] == 'scenario' and 'at most 1,048,576' in r['error']['message'] and len(r['error']['message']) < 200" -- bash -c "'$cli' < '$deep'"
rm -f "$deep"
check "a tiny config.json on a 4096 GiB GPU is refused by the GPU's memory" 2 "r['error']['field'] == 'gpu_config.memory_gib' and r['error']['code'] == 'out_of_range'" -- "$cli" --scenario '{"model_config": {"num_hidden_layers": 1, "hidden_size": 64, "intermediate_size": 64, "num_attention_heads": 1, "vocab_size": 10, "max_position_embeddings": 1048576}, "gpu_config": {"memory_gib": 4096, "hbm_tb_per_s": 8, "bf16_dense_tflops": 2000}}'
check "20,000 one-million-token requests on a tiny model are refused before they run" 2 "r['error']['field'] == 'requests' and 'at most' in r['error']['message']" -- "$cli" --simulate '{"workload": "fixed", "requests": 20000, "rate_per_s": 10000}' --scenario '{"model_config": {"num_hidden_layers": 1, "hidden_size": 64, "intermediate_size": 64, "num_attention_heads": 1, "vocab_size": 10, "max_position_embeddings": 1048576}, "gpu_config": {"memory_gib": 1024, "hbm_tb_per_s": 8, "bf16_dense_tflops": 2000}, "prompt_tokens": 1000000, "output_tokens": 16}'
check "a run that would generate 164 million tokens is refused at once" 2 "r['error']['field'] == 'requests' and 'at most' in r['error']['message']" -- "$cli" --simulate '{"workload": "fixed", "requests": 20000, "rate_per_s": 10000}' --scenario '{"model": "Llama-3.1-8B", "gpu": "B200", "prompt_tokens": 32768, "output_tokens": 8192}'
"$cli" --bogus >/dev/null 2>&1; [ $? -eq 2 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: unknown flag"; }
echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
