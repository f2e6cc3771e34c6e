from classes import *
import random,sys
sys.setrecursionlimit(100000)
def sccs(nodes):
    idx={};low={};on=set();stack=[];out=[];i=[0]
    for root in nodes:
        if root in idx: continue
        work=[(root,iter(moves(root)))]; idx[root]=low[root]=i[0];i[0]+=1;stack.append(root);on.add(root)
        while work:
            v,it=work[-1]
            adv=False
            for w in it:
                if w not in idx:
                    idx[w]=low[w]=i[0];i[0]+=1;stack.append(w);on.add(w);work.append((w,iter(moves(w))));adv=True;break
                elif w in on: low[v]=min(low[v],idx[w])
            if adv: continue
            work.pop()
            if work: low[work[-1][0]]=min(low[work[-1][0]],low[v])
            if low[v]==idx[v]:
                comp=[]
                while True:
                    w=stack.pop();on.discard(w);comp.append(w)
                    if w==v: break
                out.append(len(comp))
    return out

if __name__ == '__main__':
    # python3 scc.py SEED PILES: random overlapping runs of 8-16 cards on
    # PILES piles (the third pile a space when PILES is 2); prints the
    # size of the reachable set, its number of strongly connected
    # components and the largest.
    import random
    random.seed(int(sys.argv[1]))
    for trial in range(10):
        used=set(); piles=[]
        top=random.randrange(R)
        np_=int(sys.argv[2])
        for p in range(np_):
            L=random.randint(8,16)
            r=(top+random.randint(0,2))%R; pile=[]
            for i in range(L):
                rr=(r-i)%R
                opts=[(rr,s) for s in range(4) if (rr,s) not in used]
                if not opts: break
                c=random.choice(opts); used.add(c); pile.append(c)
            piles.append(tuple(pile))
        st=canon(piles)
        fw=reach(st,300000)
        if fw is None or len(fw)<100: continue
        c=sorted(sccs(list(fw)),reverse=True)
        print(len(fw), len(c), c[:8])
