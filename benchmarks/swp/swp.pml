/* Sliding window protocol: the Promela twin of swp.lts (same state numbering).
 * One process each for the sender and the receiver, and one for the network's losses; the
 * channels and the property are global variables updated inside the d_step of the process that
 * takes part in the FSP transition, so one FSP transition is one SPIN transition (equal state
 * counts). No local variables. A user's choice of colour is one d_step option per colour
 * (INOPT(c), up to 16 colours).
 * Variants: -DPROP_A, -DPROP_B, -DPROP_C (hold), -DPROP_D (violated); none: the protocol alone.
 * Size: -DN=... (colours, 2..16). */
#ifndef N
#define N 3
#endif
#define M 4
#define WHITE 1

byte sb, sk, sx, sy;  /* sender S[b][k][x][y] */
byte re, rk, rx, ry;  /* receiver R[e][k][x][y] */
byte dch;             /* data channel: 0 empty, 1 + s*N + c holding message s of colour c */
byte ach;             /* acknowledgment channel: 0 empty, 1 + e holding e */
byte prop;            /* the property's state (A, B, C: 1 once the trigger happened) */

/* The property, as hooks on the actions it watches: IN(c) in[c], SND(c) snd[_][c],
 * RCV(c) rcv[_][c], OUT(c) out[c]. */
#define SET_IF_WHITE(c) if :: (c) == WHITE -> prop = 1 :: else -> skip fi
/* The delivered colour is part of the FSP action out[x]: reading it keeps SPIN from hiding rx as
 * a write-only variable (which would merge states that the FSP model keeps apart). */
#define SEEN(c) assert((c) < N)
#define NEED_IF_WHITE(c) if :: (c) == WHITE -> assert(prop == 1) :: else -> skip fi
#if defined(PROP_A)
#define IN(c) SET_IF_WHITE(c)
#define SND(c) skip
#define RCV(c) skip
#define OUT(c) NEED_IF_WHITE(c)
#elif defined(PROP_B)
#define IN(c) SET_IF_WHITE(c)
#define SND(c) NEED_IF_WHITE(c)
#define RCV(c) skip
#define OUT(c) SEEN(c)
#elif defined(PROP_C)
#define IN(c) skip
#define SND(c) skip
#define RCV(c) SET_IF_WHITE(c)
#define OUT(c) NEED_IF_WHITE(c)
#elif defined(PROP_D)
#define IN(c) skip
#define SND(c) skip
#define RCV(c) skip
#define OUT(c) assert(false)
#else
#define IN(c) skip
#define SND(c) skip
#define RCV(c) skip
#define OUT(c) SEEN(c)
#endif

/* in[c]: the window has room. */
#define INOPT(c) \
  :: d_step { (c) < N && sk < 2 -> IN(c); \
              if :: sk == 0 -> sx = (c) :: else -> sy = (c) fi; sk = sk + 1 }

active proctype sender() {
  do
  INOPT(0) INOPT(1) INOPT(2) INOPT(3) INOPT(4) INOPT(5) INOPT(6) INOPT(7)
  INOPT(8) INOPT(9) INOPT(10) INOPT(11) INOPT(12) INOPT(13) INOPT(14) INOPT(15)
  /* snd[b][x], snd[b+1][y]: (re)transmit into the empty data channel */
  :: d_step { sk >= 1 && dch == 0 -> SND(sx); dch = 1 + sb * N + sx }
  :: d_step { sk == 2 && dch == 0 -> SND(sy); dch = 1 + ((sb + 1) % M) * N + sy }
  /* rack[e]: slide by one or two, or ignore */
  :: d_step { ach > 0 ->
       if
       :: sk >= 1 && ach - 1 == (sb + 1) % M -> sb = (sb + 1) % M; sk = sk - 1; sx = sy; sy = 0
       :: sk == 2 && ach - 1 == (sb + 2) % M -> sb = (sb + 2) % M; sk = 0; sx = 0; sy = 0
       :: else -> skip
       fi;
       ach = 0 }
  od
}

#define DS ((dch - 1) / N)
#define DC ((dch - 1) % N)

active proctype receiver() {
  do
  /* rcv[s][c]: accept if s is expected and there is room, else drop */
  :: d_step { dch > 0 -> RCV(DC);
       if
       :: DS == re && rk == 0 -> rx = DC; rk = 1; re = (re + 1) % M
       :: DS == re && rk == 1 -> ry = DC; rk = 2; re = (re + 1) % M
       :: else -> skip
       fi;
       dch = 0 }
  /* out[x]: deliver the oldest */
  :: d_step { rk >= 1 -> OUT(rx); rx = ry; ry = 0; rk = rk - 1 }
  /* sack[e]: acknowledge into the empty acknowledgment channel */
  :: d_step { ach == 0 -> ach = 1 + re }
  od
}

/* dlose, alose: the channels lose their message. */
active proctype network() {
  do
  :: d_step { dch > 0 -> dch = 0 }
  :: d_step { ach > 0 -> ach = 0 }
  od
}
