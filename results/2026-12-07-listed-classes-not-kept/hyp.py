import random, sys, itertools
from collections import deque
R=13
def builds(c,t): return (t[0]-c[0])%R==1
def canon(piles): return tuple(sorted(p for p in piles if p))
def rmoves(st,P=3):
    # reversible moves only: (1),(2),(3) with spaces taking any card
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
                    n=piles[:]; n[p]=piles[p][:-1]; n[q]=piles[q]+(c,); out.append(canon(n))
            elif len(piles[p])>=2:
                n=piles[:]; n[p]=piles[p][:-1]; n[q]=(c,); out.append(canon(n))
    return out
def cls(st,cap=100000):
    seen={st}; dq=deque([st])
    while dq:
        s=dq.popleft()
        for n in rmoves(s):
            if n not in seen:
                seen.add(n); dq.append(n)
                if len(seen)>cap: return None
    return seen
def parents(C):
    par={}
    for x in C:
        for p in x:
            for i,c in enumerate(p):
                par.setdefault(c,set()).add(p[i-1] if i>0 else None)
    return par
def count_consistent(S,par,P=3):
    # enumerate assignments parent in par[c], injective on non-None parents, floor count<=P, no cycles
    S=sorted(S); n=0
    opts=[sorted(par[c],key=lambda x:(x is None, x)) for c in S]
    for choice in itertools.product(*opts):
        used=[x for x in choice if x is not None]
        if len(set(used))<len(used): continue
        if sum(1 for x in choice if x is None)>P: continue
        # cycles: follow parents
        pm=dict(zip(S,choice)); ok=True
        for c in S:
            seen=set(); x=c
            while x is not None:
                if x in seen: ok=False;break
                seen.add(x); x=pm[x]
            if not ok: break
        if ok: n+=1
    return n
def _main():
    random.seed(int(sys.argv[1]))
    for trial in range(40):
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
        C=cls(st,20000)
        if C is None or len(C)<4: continue
        par=parents(C)
        S=[c for p in st for c in p]
        prod=1
        for c in par: prod*=len(par[c])
        if prod>2e6: print(len(C),'prod too big',prod); continue
        print(len(S), len(C), count_consistent(S,par))
    
if __name__=="__main__": _main()
