#!/bin/bash
# A lock client for `locksim check` written from docs/clients.md alone: bash, redis-cli and /dev/tcp.
# Right: SET NX PX and INCR in one Lua script, compare-and-delete, the token with every write.
set -u
key=$LOCKSIM_LOCK_KEY
mine="$LOCKSIM_WORKER-$$"
token=""
exec 3<>"/dev/tcp/$LOCKSIM_STORAGE_HOST/$LOCKSIM_STORAGE_PORT"
rc() { redis-cli -h "$LOCKSIM_REDIS_HOST" -p "$LOCKSIM_REDIS_PORT" "$@"; }
take="if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('incr', KEYS[2]) end return false"
give="if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
while IFS= read -r line; do
  [[ $line =~ \"cmd\":\"([a-z]+)\" ]] && cmd=${BASH_REMATCH[1]} || cmd=""
  answer='{"ok":true}'
  case $cmd in
    acquire)
      [[ $line =~ \"ttl_ms\":([0-9]+) ]] && ttl=${BASH_REMATCH[1]} || ttl=1000000000
      got=$(rc EVAL "$take" 2 "$key" "$key:token" "$mine" "$ttl")
      if [[ $got =~ ^[0-9]+$ ]]; then token=$got; answer="{\"ok\":true,\"token\":$token}"; else answer='{"ok":false}'; fi ;;
    work)
      [[ $line =~ \"ms\":([0-9]+) ]] && sleep "$(printf '%d.%03d' $((BASH_REMATCH[1] / 1000)) $((BASH_REMATCH[1] % 1000)))" ;;
    check)
      [[ $(rc GET "$key") == "$mine" ]] || answer='{"ok":false}' ;;
    write)
      printf 'WRITE %s %s\n' "${token:--}" "from $mine" >&3
      read -r stored _ <&3
      answer="{\"ok\":true,\"stored\":\"${stored,,}\"}" ;;
    release)
      rc EVAL "$give" 1 "$key" "$mine" >/dev/null; token="" ;;
  esac
  printf '%s\n' "$answer"
done
