int f(int n) {
    int s = 0
    return s + n;
}
