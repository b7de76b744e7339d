/* Gas Station: the Promela twin of gas.lts (same state numbering).
 * One process per customer and per pump; the operator's parts are global variables updated inside
 * the customer's or the pump's d_step, so one FSP transition is one SPIN transition (equal state
 * counts). The choice of a pump is one d_step option per pump (PUMPOPTS(x), up to 4).
 * Variants: default = SYS, -DBUGGY. Size: -DN=... (customers), -DK=... (pumps, at most 4). */
#ifndef N
#define N 3
#endif
#ifndef K
#define K 2
#endif
#define FREE 0
#define REC(i) (1 + (i))
#define ACT(i) (1 + N + (i))
#define CH(i) (1 + 2 * N + (i))
#define WHO(v) (((v) - 1) % N)

byte cu[N];  /* customer state, numbered as in gas.lts */
byte op[K];  /* the operator's part per pump: FREE, REC(i), ACT(i), CH(i) */
byte pu[K];  /* pump state: 0 idle, 1 activated, 2+k pumping for k, 2+N+k finished for k */

#ifdef BUGGY
#define PREPAY(x) \
  :: d_step { x < K && cu[_pid] == 1 && (op[x] == FREE || op[x] < CH(0)) \
              -> op[x] = (op[x] >= ACT(0) -> ACT(_pid) : REC(_pid)); cu[_pid] = 2 + 3 * x }
#else
#define PREPAY(x) \
  :: d_step { x < K && cu[_pid] == 1 && op[x] == FREE -> op[x] = REC(_pid); cu[_pid] = 2 + 3 * x }
#endif

#define PUMPOPTS(x) \
  PREPAY(x) \
  :: d_step { x < K && cu[_pid] == 2 + 3 * x && pu[x] == 1 -> pu[x] = 2 + _pid; cu[_pid] = 3 + 3 * x } \
  :: d_step { x < K && cu[_pid] == 3 + 3 * x && pu[x] == 2 + _pid -> pu[x] = 2 + N + _pid; cu[_pid] = 4 + 3 * x } \
  :: d_step { x < K && cu[_pid] == 4 + 3 * x && op[x] >= CH(0) \
              -> assert(WHO(op[x]) == _pid); op[x] = FREE; cu[_pid] = 0 }

active [N] proctype customer() {
  do
  :: d_step { cu[_pid] == 0 -> cu[_pid] = 1 }
  PUMPOPTS(0)
  PUMPOPTS(1)
  PUMPOPTS(2)
  PUMPOPTS(3)
  od
}

active [K] proctype pump() {
  do
  :: d_step { pu[_pid - N] == 0 && op[_pid - N] >= REC(0) && op[_pid - N] < ACT(0)
              -> op[_pid - N] = op[_pid - N] + N; pu[_pid - N] = 1 }
  :: d_step { pu[_pid - N] >= 2 + N && op[_pid - N] >= ACT(0) && op[_pid - N] < CH(0)
              -> op[_pid - N] = op[_pid - N] + N; pu[_pid - N] = 0 }
  od
}
