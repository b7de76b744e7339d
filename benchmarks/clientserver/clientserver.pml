/* Client-Server: the Promela twin of clientserver.lts (same state numbering).
 * One process per client; the server and the property are global variables updated inside the
 * client's d_step, so one FSP transition is one SPIN transition (equal state counts).
 * Variants: default = SYS, -DBUGGY. Size: -DN=... */
#ifndef N
#define N 3
#endif
#define me _pid

byte cl[N];   /* client state, numbered as in clientserver.lts */
byte server;  /* 0 free, i+1 granted to client i */
byte mutex;   /* the property MUTEX: 0 free, i+1 client i inside */

active [N] proctype client() {
  do
  :: d_step { cl[me] == 0 -> cl[me] = 1 }
#ifdef BUGGY
  :: d_step { cl[me] == 1 -> server = me + 1; cl[me] = 2 }
#else
  :: d_step { cl[me] == 1 && server == 0 -> server = me + 1; cl[me] = 2 }
#endif
  :: d_step { cl[me] == 2 -> assert(mutex == 0); mutex = me + 1; cl[me] = 3 }
  :: d_step { cl[me] == 3 -> assert(mutex == me + 1); mutex = 0; cl[me] = 4 }
  :: d_step { cl[me] == 4 && server == me + 1 -> server = 0; cl[me] = 0 }
  od
}
