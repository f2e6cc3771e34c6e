from classes import *
from scc import sccs
from count import arrangements
import random,sys
random.seed(int(sys.argv[1]))
for trial in range(30):
    used=set(); piles=[]
    top=random.randrange(R)
    np_=int(sys.argv[2])
    for p in range(np_):
        L=random.randint(int(sys.argv[3]),int(sys.argv[4]))
        r=(top+random.randint(0,2))%R; pile=[]
        for i in range(L):
            rr=(r-i)%R
            opts=[(rr,s) for s in range(4) if (rr,s) not in used]
            if not opts: break
            c=random.choice(opts); used.add(c); pile.append(c)
        piles.append(tuple(pile))
    st=canon(piles)
    fw=reach(st,100000)
    S=[c for p in st for c in p]
    if fw is None: print(len(S),'big', arrangements(S)); continue
    c=sorted(sccs(list(fw)),reverse=True)
    print(len(S),[len(p) for p in st], len(fw), c[:4], arrangements(S))
