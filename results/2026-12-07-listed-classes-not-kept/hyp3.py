from hyp import *
import itertools
RS='A23456789TJQK'; SS='cshd'
def nm(c): return RS[c[0]]+SS[c[1]]
def show(x): return ' | '.join(' '.join(nm(c) for c in p) for p in x)
def consistent_list(S,par,P=3):
    S=sorted(S); res=[]
    opts=[sorted(par[c],key=lambda x:(x is None, x)) for c in S]
    for choice in itertools.product(*opts):
        used=[x for x in choice if x is not None]
        if len(set(used))<len(used): continue
        if sum(1 for x in choice if x is None)>P: continue
        pm=dict(zip(S,choice)); ok=True
        for c in S:
            seen=set(); x=c
            while x is not None:
                if x in seen: ok=False;break
                seen.add(x); x=pm[x]
            if not ok: break
        if not ok: continue
        # build piles
        child={v:k for k,v in pm.items() if v is not None}
        piles=[]
        for c in S:
            if pm[c] is None:
                p=[c]
                while p[-1] in child: p.append(child[p[-1]])
                piles.append(tuple(p))
        res.append(canon(piles))
    return res
random.seed(1)
for trial in range(40):
    used=set(); piles=[]
    top=random.randrange(R)
    for p in range(2):
        L=random.randint(5,10)
        r=(top+random.randint(0,2))%R; pile=[]
        for i in range(L):
            rr=(r-i)%R
            opts=[(rr,s) for s in range(4) if (rr,s) not in used]
            if not opts: break
            c=random.choice(opts); used.add(c); pile.append(c)
        piles.append(tuple(pile))
    st=canon(piles)
    C=cls(st,20000)
    if C is None or len(C)<4: continue
    par=parents(C)
    S=[c for p in st for c in p]
    L=consistent_list(S,par)
    if len(L)!=len(C):
        for x in sorted(C): print(show(x))
        print('extra:')
        for x in L:
            if x not in C: print(show(x), ' class size', len(cls(x)))
        break
