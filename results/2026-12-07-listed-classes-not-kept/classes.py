"""Tableau moves of Chameleon once its reserve is empty (3 piles, any suit,
K on A, single cards or whole piles, spaces take any card): the positions
reachable from an arrangement, by tableau moves alone."""
import random, sys
from collections import deque
R=13
def builds(c,t): return (t[0]-c[0])%R==1   # card=(rank,suit)
def moves(st, P=3, whole=True):
    piles=list(st)
    while len(piles)<P: piles.append(())
    out=[]
    for p in range(P):
        if not piles[p]: continue
        c=piles[p][-1]
        for q in range(P):
            if q==p: continue
            if piles[q]:
                if builds(c,piles[q][-1]):
                    n=piles[:]; n[p]=piles[p][:-1]; n[q]=piles[q]+(c,); out.append(n)
                if whole and len(piles[p])>=2 and builds(piles[p][0],piles[q][-1]):
                    n=piles[:]; n[p]=(); n[q]=piles[q]+piles[p]; out.append(n)
            elif len(piles[p])>=2:
                n=piles[:]; n[p]=piles[p][:-1]; n[q]=(c,); out.append(n)
    return [canon(n) for n in out]
def canon(piles): return tuple(sorted(p for p in piles if p))
def reach(st,cap=200000):
    seen={st}; dq=deque([st])
    while dq:
        s=dq.popleft()
        for n in moves(s):
            if n not in seen:
                seen.add(n); dq.append(n)
                if len(seen)>cap: return None
    return seen
