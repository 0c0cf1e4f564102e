A mushroom in four colours, in Olšák's .g format. The colour 1 is that of
blocks without a letter.

#d
   0:   white
   1:*  #ff0000  red
   w:w  #f0f0f0  white2
   b:b  #8b4513  brown
   g:g  #00a000  green
: rows
4
8
2 2w 2 2w 2
3 2w 2 2w 3
12
1 2w 2 2w 2 2w 1
1 2w 2 2w 2 2w 1
4b
1b 1w 2b
4b
1g 4b 1g
10g
: columns
4
3 2w 1g
4 2w 1g
1 2w 3 2g
2 2w 3 4b 1g
5 2w 1b 1w 2b 1g
5 2w 4b 1g
2 2w 3 4b 1g
1 2w 3 2g
4 2w 1g
3 2w 1g
4
: end
