from classes import *
from scc import sccs
from math import comb, factorial
import random,sys
def arrangements(S,P=3):
    ranks={}
    for c in S: ranks.setdefault(c[0],[]).append(c)
    dist={0:1}
    for r in ranks:
        a=len(ranks.get((r+1)%R,[])); b=len(ranks[r])
        nd={}
        for L,w in dist.items():
            for k in range(min(a,b)+1):
                nd[L+k]=nd.get(L+k,0)+w*comb(a,k)*comb(b,k)*factorial(k)
        dist=nd
    n=len(S)
    full = len(ranks)==R
    return sum(w for L,w in dist.items() if n-L<=P and n-L>=1), full
