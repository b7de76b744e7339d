/* Bakery with tickets bounded by T = N: the Promela twin of bakery.lts (same states).
 * One process per bakery process; its FSP local state is (pc, j, m) in global arrays, and the
 * shared variables (ticket, choosing) and the property are global too, each updated inside one
 * d_step, so one FSP transition is one SPIN transition (equal state counts). Index `me` itself is
 * skipped in every loop over j, as FSP's MAX[I][m] = MAX[I+1][m] identifies those states.
 * Variants: default = SYS, -DBUGGY. Size: -DN=... */
#ifndef N
#define N 2
#endif
#define T N
#define me _pid
#define FIRST (me == 0 -> 1 : 0)
#define NEXT(j) ((j) + 1 == me -> (j) + 2 : (j) + 1)
/* pc: 0 before choosing := 1; 1 MAX[j][m]; 2 PICK[m]; 3 ticket written (m = my);
 * 4 WAITC[j][my]; 5 WAITT[j][my]; 6 CS; 7 inside; 8 exited */
byte pc[N]; byte jj[N]; byte mm[N];
byte ticket[N]; bit choosing[N];
byte mutex; /* the property MUTEX: 0 free, i+1 process i inside */

active [N] proctype proc() {
  do
  :: d_step { pc[me] == 0 -> choosing[me] = 1; pc[me] = 1; jj[me] = FIRST; mm[me] = 0 }
  :: d_step { pc[me] == 1 -> mm[me] = (ticket[jj[me]] > mm[me] -> ticket[jj[me]] : mm[me]);
              jj[me] = NEXT(jj[me]); if :: jj[me] == N -> pc[me] = 2; jj[me] = 0 :: else fi }
  :: d_step { pc[me] == 2 && mm[me] < T -> ticket[me] = mm[me] + 1; mm[me] = mm[me] + 1; pc[me] = 3 }
  :: d_step { pc[me] == 2 && mm[me] == T -> pc[me] = 1; jj[me] = FIRST; mm[me] = 0 }
#ifdef BUGGY
  :: d_step { pc[me] == 3 -> choosing[me] = 0; pc[me] = 5; jj[me] = FIRST }
#else
  :: d_step { pc[me] == 3 -> choosing[me] = 0; pc[me] = 4; jj[me] = FIRST }
#endif
  :: d_step { pc[me] == 4 && choosing[jj[me]] == 1 -> skip }
  :: d_step { pc[me] == 4 && choosing[jj[me]] == 0 -> jj[me] = NEXT(jj[me]);
              if :: jj[me] == N -> pc[me] = 5; jj[me] = FIRST :: else fi }
  :: d_step { pc[me] == 5 && ticket[jj[me]] != 0 && (ticket[jj[me]] < mm[me] || (ticket[jj[me]] == mm[me] && jj[me] < me)) -> skip }
  :: d_step { pc[me] == 5 && !(ticket[jj[me]] != 0 && (ticket[jj[me]] < mm[me] || (ticket[jj[me]] == mm[me] && jj[me] < me)))
              -> jj[me] = NEXT(jj[me]); if :: jj[me] == N -> pc[me] = 6; jj[me] = 0; mm[me] = 0 :: else fi }
  :: d_step { pc[me] == 6 -> assert(mutex == 0); mutex = me + 1; pc[me] = 7 }
  :: d_step { pc[me] == 7 -> assert(mutex == me + 1); mutex = 0; pc[me] = 8 }
  :: d_step { pc[me] == 8 -> ticket[me] = 0; pc[me] = 0 }
  od
}
