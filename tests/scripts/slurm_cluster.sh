#!/usr/bin/env bash
# Runs COMMAND on a private single-node Slurm cluster that lives only for the
# command: its own munged, slurmctld and slurmd on loopback ports, every file
# under a temporary directory, all stopped by PID and removed on exit.
#
#   slurm_cluster.sh COMMAND [ARG...]     exit status: COMMAND's; 77 when Slurm
#                                         or munge is not installed (CTest skip)
#
# COMMAND sees SLURM_CONF, so sbatch/squeue/scancel talk to this cluster.
# Settings that matter on a machine without systemd or a cgroup freezer:
# proctrack/linuxproc, task/none and no accounting (proctrack/cgroup fails
# there and leaves the node drained); MinJobAge=0 and batch_sched_delay=0 so
# `sbatch --wait` returns within seconds; CPUs and memory no more than the
# host has (else the node is invalid). Needs root (slurmd runs jobs as root).
set -euo pipefail

for tool in munged mungekey slurmctld slurmd sinfo sbatch scancel; do
  if ! command -v "$tool" >/dev/null; then
    echo "slurm_cluster: $tool not found (Debian packages slurm-wlm, munge); skipped" >&2
    exit 77
  fi
done
if [[ $(id -u) -ne 0 ]]; then
  echo "slurm_cluster: slurmd must run as root to run jobs; skipped" >&2
  exit 77
fi

umask 022
root=$(mktemp -d /tmp/slurm.XXXXXX)  # short: unix socket paths stay under 108 bytes
mkdir -p "$root"/{etc,state,spool,log,run,munge}
export SLURM_CLUSTER_MARKER="$root"  # every process started from here carries it
pids=()

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if ((status != 0)) && [[ -f $root/log/slurmctld.log ]]; then
    echo "slurm_cluster: exit $status; log tails:" >&2
    tail -n 20 "$root"/log/*.log >&2 || true
  fi
  scancel --quiet --full --name=ptovp-sweep 2>/dev/null || true
  # Daemons in reverse start order, each by PID: TERM, up to 5 s, then KILL.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    local pid=${pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
  # Job steps outlive slurmd under proctrack/linuxproc: end whatever still
  # carries this cluster's marker.
  for environ in /proc/[0-9]*/environ; do
    local pid=${environ#/proc/}
    pid=${pid%/environ}
    [[ $pid == "$$" ]] && continue
    if { tr "\0" "\n" <"$environ"; } 2>/dev/null | grep -qx "SLURM_CLUSTER_MARKER=$root"; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$root"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "slurm_cluster: no free port" >&2
  return 1
}

# munge with its own key, socket and files.
mungekey --create --keyfile "$root/munge/munge.key" >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$root/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$root/munge/munge.key"
munged --foreground --force --socket "$root/munge/socket" --key-file "$root/munge/munge.key" \
  --pid-file "$root/munge/munged.pid" --seed-file "$root/munge/seed" \
  --log-file "$root/log/munged.log" >>"$root/log/munged.out" 2>&1 &
pids+=($!)

ctld_port=$(free_port)
slurmd_port=$(free_port)
while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done
memory=$(awk '/MemTotal/ {print int($2 / 2048)}' /proc/meminfo)
cat >"$root/etc/slurm.conf" <<EOF
ClusterName=ptovp
SlurmctldHost=localhost
SlurmUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$root/munge/socket
StateSaveLocation=$root/state
SlurmdSpoolDir=$root/spool
SlurmctldPidFile=$root/run/slurmctld.pid
SlurmdPidFile=$root/run/slurmd.pid
SlurmctldLogFile=$root/log/slurmctld.log
SlurmdLogFile=$root/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
MinJobAge=0
MailProg=/bin/true
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=sweep Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$root/etc/slurm.conf

# Wait for munged's socket before the daemons that need it.
for _ in $(seq 50); do [[ -S $root/munge/socket ]] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >>"$root/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >>"$root/log/slurmd.out" 2>&1 &
pids+=($!)

for attempt in $(seq 300); do
  for pid in "${pids[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "slurm_cluster: a daemon (PID $pid) exited during start-up" >&2
      exit 1
    fi
  done
  state=$(sinfo -h -N -o %T 2>/dev/null || true)
  [[ $state == idle ]] && break
  if ((attempt == 300)); then
    echo "slurm_cluster: the node did not become idle in 30 s (state '$state')" >&2
    exit 1
  fi
  sleep 0.1
done

# The command in the background: `wait` lets a TERM reach the trap at once.
"$@" &
wait $!
