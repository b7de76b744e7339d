/* Dining philosophers with one lock: the Promela twin of dining.lts (same state numbering).
 * One process per philosopher; forks, the lock and the property's counter are global variables
 * updated inside the philosopher's d_step, so one FSP transition is one SPIN transition and the
 * reachable state graphs are isomorphic (equal state counts).
 * Variants: default = SYS, -DBUGGY, -DCLASSIC. Size: -DN=... */
#ifndef N
#define N 3
#endif
#define me _pid
#define LEFT (_pid)
#define RIGHT ((_pid + 1) % N)

byte ph[N];   /* philosopher state, numbered as in dining.lts */
byte fork[N]; /* 0 free, 1 held as left fork, 2 held as right fork */
byte lock;    /* 0 free, p+1 held by philosopher p */
byte going;   /* the property NOTALL: how many philosophers go for their right fork */

active [N] proctype phil() {
  do
#if defined(CLASSIC)
  :: d_step { ph[me] == 0 && fork[LEFT] == 0 -> fork[LEFT] = 1; ph[me] = 1 }
  :: d_step { ph[me] == 1 && fork[RIGHT] == 0 -> fork[RIGHT] = 2; ph[me] = 2 }
  :: d_step { ph[me] == 2 -> ph[me] = 3 }                     /* eat */
  :: d_step { ph[me] == 3 -> fork[RIGHT] = 0; ph[me] = 4 }
  :: d_step { ph[me] == 4 -> fork[LEFT] = 0; ph[me] = 0 }
#elif defined(BUGGY)
  :: d_step { ph[me] == 0 && lock == 0 -> lock = me + 1; ph[me] = 1 }
  :: d_step { ph[me] == 1 && fork[LEFT] == 0 -> fork[LEFT] = 1; ph[me] = 2 }
  :: d_step { ph[me] == 2 -> lock = 0; ph[me] = 3 }
  :: d_step { ph[me] == 3 -> assert(going < N - 1); going++; ph[me] = 4 }
  :: d_step { ph[me] == 4 && fork[RIGHT] == 0 -> assert(going > 0); going--; fork[RIGHT] = 2; ph[me] = 5 }
  :: d_step { ph[me] == 5 -> ph[me] = 6 }                     /* eat */
  :: d_step { ph[me] == 6 -> fork[RIGHT] = 0; ph[me] = 7 }
  :: d_step { ph[me] == 7 -> fork[LEFT] = 0; ph[me] = 0 }
  :: d_step { ph[me] == 3 -> fork[LEFT] = 0; ph[me] = 0 }
#else
  :: d_step { ph[me] == 0 && lock == 0 -> lock = me + 1; ph[me] = 1 }
  :: d_step { ph[me] == 1 && fork[LEFT] == 0 -> fork[LEFT] = 1; ph[me] = 2 }
  :: d_step { ph[me] == 2 -> assert(going < N - 1); going++; ph[me] = 3 }
  :: d_step { ph[me] == 3 && fork[RIGHT] == 0 -> assert(going > 0); going--; fork[RIGHT] = 2; ph[me] = 4 }
  :: d_step { ph[me] == 4 -> lock = 0; ph[me] = 5 }
  :: d_step { ph[me] == 5 -> ph[me] = 6 }                     /* eat */
  :: d_step { ph[me] == 6 -> fork[RIGHT] = 0; ph[me] = 7 }
  :: d_step { ph[me] == 7 -> fork[LEFT] = 0; ph[me] = 0 }
  :: d_step { ph[me] == 2 -> lock = 0; ph[me] = 8 }
  :: d_step { ph[me] == 8 -> fork[LEFT] = 0; ph[me] = 0 }
#endif
  od
}
