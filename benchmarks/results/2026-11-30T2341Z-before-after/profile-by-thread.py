import re,sys,collections
for f in sys.argv[1:]:
    t=open(f).read()
    blocks=re.findall(r'--- (\d+) ns \(([\d.]+)%\), (\d+) samples\n((?:\s+\[\s*\d+\] .*\n)+)', t)
    tot=collections.Counter(); selfc=collections.defaultdict(collections.Counter)
    for ns,pct,n,stack in blocks:
        frames=[l.split('] ',1)[1] for l in stack.strip().split('\n')]
        s=' '.join(frames)
        side='producer' if ('.produce' in s) else 'jmh-thread' if ('moveBatch' in s or 'transfer' in s) else 'C peer' if ('run' == frames[-1] or 'start_thread' in s or 'clone' in s) else 'other'
        tot[side]+=int(n); selfc[side][frames[0]]+=int(n)
    name=f.split('/')[-1] if 'txt' in f.split('/')[-1] and 'summary' not in f else f.split('chunk-')[-1].split('/')[0]
    print('==',name, dict(tot))
    for side in ('producer','jmh-thread','C peer'):
        if tot[side]:
            print('  ',side, tot[side], '; '.join(f'{k.split(".")[-1] if "." in k else k} {100*v/tot[side]:.0f}%' for k,v in selfc[side].most_common(5)))
