#!/usr/bin/env python3
"""A second implementation of the SDR parent graph (storage-proofs-core drgraph.rs BucketGraph,
storage-proofs-porep stacked/vanilla/graph.rs expander), independent of src/filecoin/parents.c:
ChaCha8 written out, hashlib for SHA-256 and BLAKE2b, math.log2 as Rust f64::log2. Prints the
2 KiB v1.1 cache digest prefix (84005770 in parent_cache.json) and the parents of the nodes
test_filecoin_parents.c checks for 32 and 64 GiB. Run: python3 tests/filecoin/sdr_graph_ref.py"""
import hashlib, struct, math
M=0xffffffff
def rotl(x,r): return ((x<<r)|(x>>(32-r)))&M
def qr(x,a,b,c,d):
    x[a]=(x[a]+x[b])&M; x[d]=rotl(x[d]^x[a],16)
    x[c]=(x[c]+x[d])&M; x[b]=rotl(x[b]^x[c],12)
    x[a]=(x[a]+x[b])&M; x[d]=rotl(x[d]^x[a],8)
    x[c]=(x[c]+x[d])&M; x[b]=rotl(x[b]^x[c],7)
def block(key,ctr,rounds=8):
    st=[0x61707865,0x3320646e,0x79622d32,0x6b206574]+list(struct.unpack('<8I',key))+[ctr&M,ctr>>32,0,0]
    x=st[:]
    for _ in range(rounds//2):
        qr(x,0,4,8,12);qr(x,1,5,9,13);qr(x,2,6,10,14);qr(x,3,7,11,15)
        qr(x,0,5,10,15);qr(x,1,6,11,12);qr(x,2,7,8,13);qr(x,3,4,9,14)
    return [(x[i]+st[i])&M for i in range(16)]
def porep_id(i): return i.to_bytes(8,'little')+bytes(24)
def drg(pid,nodes,node,legacy):
    if node<2: return [0]*6
    seed=hashlib.sha256(b"Filecoin_DRSample"+pid).digest()[:28]+node.to_bytes(4,'little')
    w=block(seed,0)+block(seed,1)
    it=iter(range(0,32,2))
    def r():
        i=next(it); return w[i]|(w[i+1]<<32)
    meta=node*5; nb=math.ceil(math.log2(meta))
    out=[]
    for _ in range(5):
        b=r()%nb+1; lg=min(meta,1<<b); sm=max(2,lg>>1); d=sm+r()%(lg-sm+1)
        m=(meta-d)//5; out.append(node-1 if m==node else m)
    return out+[node-1] if legacy else [node-1]+out
def exp(pid,nodes,node,legacy):
    h=hashlib.sha256(b"Filecoin_Feistel"+pid).digest(); keys=struct.unpack('<4Q',h)
    n=nodes*8; p4=4; l4=1
    while p4<n: p4*=4; l4+=1
    rm=(1<<l4)-1; lm=rm<<l4
    def F(r,k): return int.from_bytes(hashlib.blake2b(r.to_bytes(8,'big')+k.to_bytes(8,'big')).digest()[:8],'big')&rm
    def enc(i):
        L=(i&lm)>>l4; R=i&rm
        for k in keys[:3]: L,R=R,L^F(R,k)
        return (L<<l4)|R
    out=[]
    for i in range(8):
        u=enc(node*8+i)
        while u>=n: u=enc(u)
        out.append(((u&M)//8) if legacy else u//8)
    return out
# sanity: 2K v1.1 full cache digest
buf=b''.join(struct.pack('<14I',*(drg(porep_id(5),64,v,False)+exp(porep_id(5),64,v,False))) for v in range(64))
print('2k v1.1', hashlib.sha256(buf).hexdigest()[:8])
for pid,nodes,legacy in [(3,1<<30,True),(8,1<<30,False),(4,1<<31,True),(9,1<<31,False)]:
    for v in [2, 1000003, nodes-1]:
        print(pid, v, drg(porep_id(pid),nodes,v,legacy)+exp(porep_id(pid),nodes,v,legacy))
