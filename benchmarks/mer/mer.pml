/* MER resource arbiter: the Promela twin of mer.lts (same state numbering).
 * One process per user; the arbiter's parts and the properties are global variables updated
 * inside the user's d_step, so one FSP transition is one SPIN transition (equal state counts).
 * The choice of a resource is one d_step option per resource (RES(x) below, up to 4), because a
 * choice inside a d_step would not branch and a choice outside it would add states.
 * Variants: default = SYS, -DBUGGY. Size: -DN=... (users), -DR=... (resources, at most 4). */
#ifndef N
#define N 3
#endif
#ifndef R
#define R 2
#endif
#define me _pid
#define FREE 0
#define REQ(i) (1 + (i))
#define BUSY(i) (1 + N + (i))
#define DENY(i, j) (1 + 2 * N + (i) * N + (j))

byte us[N];   /* user state, numbered as in mer.lts */
byte arb[R];  /* the arbiter's part per resource: FREE, REQ(i), BUSY(i), DENY(i, j) */
byte mutex[R];/* the property MUTEX(x): 0 free, i+1 user i between start and stop */

#ifdef BUGGY
#define ON_DENY(x) \
  :: d_step { x < R && us[me] == 2 + 4 * x && arb[x] >= DENY(0, 0) && (arb[x] - DENY(0, 0)) % N == me \
              && (arb[x] - DENY(0, 0)) / N > me -> arb[x] = BUSY(me); us[me] = 3 + 4 * x } \
  :: d_step { x < R && us[me] == 2 + 4 * x && arb[x] >= DENY(0, 0) && (arb[x] - DENY(0, 0)) % N == me \
              && (arb[x] - DENY(0, 0)) / N <= me -> arb[x] = BUSY((arb[x] - DENY(0, 0)) / N); us[me] = 0 }
#else
#define ON_DENY(x) \
  :: d_step { x < R && us[me] == 2 + 4 * x && arb[x] >= DENY(0, 0) && (arb[x] - DENY(0, 0)) % N == me \
              -> arb[x] = BUSY((arb[x] - DENY(0, 0)) / N); us[me] = 0 }
#endif

#define RES(x) \
  :: d_step { x < R && us[me] == 1 && arb[x] == FREE -> arb[x] = REQ(me); us[me] = 2 + 4 * x } \
  :: d_step { x < R && us[me] == 1 && arb[x] >= BUSY(0) && arb[x] < DENY(0, 0) \
              -> arb[x] = DENY(arb[x] - BUSY(0), me); us[me] = 2 + 4 * x } \
  :: d_step { x < R && us[me] == 2 + 4 * x && arb[x] == REQ(me) -> arb[x] = BUSY(me); us[me] = 3 + 4 * x } \
  ON_DENY(x) \
  :: d_step { x < R && us[me] == 3 + 4 * x -> assert(mutex[x] == 0); mutex[x] = me + 1; us[me] = 4 + 4 * x } \
  :: d_step { x < R && us[me] == 4 + 4 * x -> assert(mutex[x] == me + 1); mutex[x] = 0; us[me] = 5 + 4 * x } \
  :: d_step { x < R && us[me] == 5 + 4 * x && arb[x] == BUSY(me) -> arb[x] = FREE; us[me] = 0 }

active [N] proctype user() {
  do
  :: d_step { us[me] == 0 -> us[me] = 1 }
  RES(0)
  RES(1)
  RES(2)
  RES(3)
  od
}
