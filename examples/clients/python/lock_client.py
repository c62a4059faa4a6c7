#!/usr/bin/python3
"""A lock client for `locksim check` (docs/clients.md), on Debian's python3-redis.

    locksim check --client '/usr/bin/python3 examples/clients/python/lock_client.py' --all

It does it right: SET NX PX and the token from INCR in one Lua script (so no pause can fall between the
lock and its token), a Lua compare-and-delete to release, and the token sent with every write.
`--mistake` makes one of the mistakes the source names instead:

  setnx-expire  SETNX, then EXPIRE in a second command (a crash or a pause between the two: no lease)
  plain-del     release with a plain DEL, whoever holds the lock now
  no-token      write without the token, so the storage has nothing to check
"""
import json
import os
import socket
import sys
import time

import redis

MISTAKES = ("setnx-expire", "plain-del", "no-token")
mistake = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--mistake" else None
if mistake is not None and mistake not in MISTAKES:
    sys.exit(f"--mistake must be one of {', '.join(MISTAKES)}")

KEY = os.environ["LOCKSIM_LOCK_KEY"]
COUNTER = KEY + ":token"
r = redis.Redis(host=os.environ["LOCKSIM_REDIS_HOST"], port=int(os.environ["LOCKSIM_REDIS_PORT"]))
storage = socket.create_connection((os.environ["LOCKSIM_STORAGE_HOST"], int(os.environ["LOCKSIM_STORAGE_PORT"])))
replies = storage.makefile("r")

# The lock and its token in one step: a token taken after the lock could come after a newer holder's.
ACQUIRE = r.register_script("""
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('incr', KEYS[2]) end
return false""")
ACQUIRE_NO_LEASE = r.register_script("""
if redis.call('set', KEYS[1], ARGV[1], 'NX') then return redis.call('incr', KEYS[2]) end
return false""")
# Delete the key only if it still holds my value.
RELEASE = r.register_script("""
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0""")
# My lease is still mine: the key holds my value.
CHECK = r.register_script("return redis.call('get', KEYS[1]) == ARGV[1] and 1 or 0")

me = f"{os.environ['LOCKSIM_WORKER']}-{os.getpid()}"
grants = 0
value, token = None, None


def acquire(ttl_ms):
    global grants, value, token
    grants += 1
    mine = f"{me}.{grants}"
    if mistake == "setnx-expire":
        if not r.setnx(KEY, mine):
            return {"ok": False}
        if ttl_ms is not None:
            r.pexpire(KEY, ttl_ms)  # too late if the process stopped or died after SETNX
        got = r.incr(COUNTER)
    elif ttl_ms is None:
        got = ACQUIRE_NO_LEASE(keys=[KEY, COUNTER], args=[mine])
    else:
        got = ACQUIRE(keys=[KEY, COUNTER], args=[mine, ttl_ms])
    if got is None:
        return {"ok": False}
    value, token = mine, int(got)
    return {"ok": True, "token": token}


def write(data):
    sent = "-" if mistake == "no-token" or token is None else str(token)
    storage.sendall(f"WRITE {sent} {data}\n".encode())
    answer = replies.readline().split()
    return {"ok": True, "stored": answer[0].lower() if answer else "nothing"}


def release():
    global value, token
    if mistake == "plain-del":
        r.delete(KEY)
    elif value is not None:
        RELEASE(keys=[KEY], args=[value])
    value, token = None, None
    return {"ok": True}


for line in sys.stdin:
    cmd = json.loads(line)
    what = cmd["cmd"]
    if what == "hello":
        answer = {"ok": True}
    elif what == "acquire":
        answer = acquire(cmd.get("ttl_ms"))
    elif what == "work":
        time.sleep(cmd["ms"] / 1000)
        answer = {"ok": True}
    elif what == "check":
        answer = {"ok": value is not None and CHECK(keys=[KEY], args=[value]) == 1}
    elif what == "write":
        answer = write(cmd["data"])
    elif what == "release":
        answer = release()
    else:
        answer = {"ok": False, "error": f"unknown command {what}"}
    print(json.dumps(answer), flush=True)
