#!/usr/bin/env python3
# An independent model of IEEE 802.11-2020 12.4.4.2.2 (hunting-and-pecking
# PWE) and 12.4.4.2.3 (hash-to-element PT), written from the text in plain
# Python integers, to cross-check daemon/crypto/sae*.c in groups 20 and 21,
# which have no published vectors. Not run by make check (the C suite
# carries its output, tests/unit/test_crypto_sae.c model_vectors); it
# asserts the J.10 group 19 values first, then prints 20 and 21.
# Curve constants come from `openssl ecparam -param_enc explicit`.
#   python3 tests/unit/sae_model.py
import hmac, hashlib, subprocess, re, sys
def curve(name):
    t = subprocess.run(['openssl','ecparam','-name',name,'-param_enc','explicit','-text','-noout'],capture_output=True,text=True).stdout
    def field(lbl):
        m = re.search(lbl+r':\s*\n((?:\s+[0-9a-f:]+\n)+)', t)
        return int(re.sub(r'[\s:]','',m.group(1)),16)
    p=field('Prime'); a=field('A'); b=field('B'); r=field('Order')
    return p,a,b,r
CURVES={19:('prime256v1',hashlib.sha256,-10),20:('secp384r1',hashlib.sha384,-12),21:('secp521r1',hashlib.sha512,-4)}
def kdf_bits(h, key, label, ctx, bits):
    out=b''; i=1
    while len(out)*8 < bits:
        out += hmac.new(key, i.to_bytes(2,'little')+label+ctx+bits.to_bytes(2,'little'), h).digest(); i+=1
    n=(bits+7)//8; v=int.from_bytes(out[:n],'big')
    return v >> (n*8-bits)   # the first `bits` bits as an integer
def legendre(v,p): return pow(v,(p-1)//2,p)
def sqrt(v,p): return pow(v,(p+1)//4,p)
def hnp(group, a_mac, b_mac, pw, ident=b''):
    name,_,_=CURVES[group]; p,a,b,r=curve(name)
    plen=(p.bit_length()+7)//8
    addrs=max(a_mac,b_mac)+min(a_mac,b_mac)
    found=None
    for ctr in range(1,41):
        seed=hmac.new(addrs, pw+ident+bytes([ctr]), hashlib.sha256).digest()
        x=kdf_bits(hashlib.sha256, seed, b'SAE Hunting and Pecking', p.to_bytes(plen,'big'), p.bit_length())
        if x>=p: continue
        y2=(x**3+a*x+b)%p
        if legendre(y2,p)!=1: continue
        if found is None: found=(x,y2,seed[-1]&1)
    x,y2,odd=found; y=sqrt(y2,p)
    if (y&1)!=odd: y=p-y
    return x.to_bytes(plen,'big')+y.to_bytes(plen,'big')
def sswu(u,p,a,b,z):
    m=(z*z*pow(u,4,p)+z*u*u)%p
    t=pow(m,p-2,p)
    x1=(b*pow(z*a,p-2,p))%p if m==0 else ((-b*pow(a,p-2,p))*(1+t))%p
    gx1=(x1**3+a*x1+b)%p
    x2=(z*u*u*x1)%p
    gx2=(x2**3+a*x2+b)%p
    if legendre(gx1,p)==1: x,v=x1,gx1
    else: x,v=x2,gx2
    y=sqrt(v,p)
    if (y&1)!=(u&1): y=p-y
    return x,y
def add(P,Q,p):
    (x1,y1),(x2,y2)=P,Q
    l=((y2-y1)*pow(x2-x1,p-2,p))%p
    x3=(l*l-x1-x2)%p
    return x3,(l*(x1-x3)-y1)%p
def hkdf_expand(h,prk,info,L):
    out=b''; t=b''; i=1
    while len(out)<L:
        t=hmac.new(prk,t+info+bytes([i]),h).digest(); out+=t; i+=1
    return out[:L]
def pt(group, ssid, pw, ident=b''):
    name,h,z=CURVES[group]; p,a,b,r=curve(name)
    plen=(p.bit_length()+7)//8
    seed=hmac.new(ssid,pw+ident,h).digest()
    L=plen+plen//2
    u1=int.from_bytes(hkdf_expand(h,seed,b'SAE Hash to Element u1 P1',L),'big')%p
    u2=int.from_bytes(hkdf_expand(h,seed,b'SAE Hash to Element u2 P2',L),'big')%p
    x,y=add(sswu(u1,p,a,b,z%p),sswu(u2,p,a,b,z%p),p)
    return x.to_bytes(plen,'big')+y.to_bytes(plen,'big')
if __name__=='__main__':
    A=bytes.fromhex('4d3f2fffe387'); B=bytes.fromhex('a5d8aa958e3c')
    # self-check against the published J.10 values first
    assert hnp(19,A,B,b'mekmitasdigoat').hex()=='da6eb7b06a1ac5624974f90afdd6a8e9d5722634cf987c34defc91a9874e5658f4fefd130bd5be08fe68af3e4a290272ec065fd3671f3c25bf8ec419ddc9b822'
    assert pt(19,b'byteme',b'mekmitasdigoat',b'psk4internet').hex()=='b6e38c98750c684b5d17c3d8c9a4100b39931279187ca6cced5f37ef46ddfa975687e972e50f73e3898861e7edad21bea7d5f622df88243bb804920ae8e647fa'
    for g in (20,21):
        print('HNP',g,hnp(g,A,B,b'mekmitasdigoat').hex())
        print('PT',g,pt(g,b'byteme',b'mekmitasdigoat',b'psk4internet').hex())
