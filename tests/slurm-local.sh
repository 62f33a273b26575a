#!/usr/bin/env bash
# slurm-local.sh — a single-node Slurm cluster on localhost, for the farm
# tests: munged with a generated key, slurmctld and slurmd with a generated
# slurm.conf, all state in DIR, stopped by PID.
#   slurm-local.sh start DIR   prints "export SLURM_CONF=…" once the node is idle
#   slurm-local.sh stop DIR
# Needs root (slurmd runs jobs as their submitter) and Debian's slurm-wlm
# and munge. Nothing is installed as a service and nothing outside DIR is
# written: munge and Slurm are pointed at DIR's socket, key and spool.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

stop() {
  local name pid
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
}

# A free TCP port on loopback (the kernel picks it).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

mkdir -p "$dir"/{munge,spool,state,log}
chmod 700 "$dir/munge"
dir=$(cd "$dir" && pwd)
trap 'stop' ERR

mungekey --create --keyfile="$dir/munge/munge.key" --force 2>/dev/null ||
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
# --force: munged refuses a key or socket folder it does not own the way it
# likes (root in a container, a temp dir).
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024*0.8)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<EOF
ClusterName=wavegraph-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups in a container: processes are tracked by their parents.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
# Seconds, not minutes: the scheduler looks at new jobs at once, finished
# jobs stay visible to squeue for 5 minutes, a cancelled job has 10 s to
# save its state before SIGKILL.
SchedulerParameters=sched_interval=1,bf_interval=1
MinJobAge=300
KillWait=10
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF"
for _ in $(seq 300); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
  case "$state" in idle*) echo "export SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
  sleep 0.1
done
echo "slurm-local: the node did not come up (state: ${state:-none}); see $dir/log" >&2
tail -n 20 "$dir"/log/*.log >&2 || true
stop
exit 1
