import { useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { isLanguage, useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { Page } from '@cw/shared-ui/page';
import { EmptyState, ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, List } from 'antd-mobile';
import { HeartFill, HeartOutline } from 'antd-mobile-icons';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/rewards.module.css';
import { type LikesStatus, useDrawMutation, useLikeMutation, useLikes } from '../api/likes.ts';
import { FairnessCard } from './fairness-card.tsx';
import { VerifyDay } from './verify-day.tsx';

function DrawCard({ data }: { data: LikesStatus }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const draw = useDrawMutation();
  const prize = (minor: string) =>
    minor === '0'
      ? t('likes.noPrize')
      : view
        ? `${format.display(minor, view.displayOf(data.asset))} ${data.asset}`
        : '…';
  const left = Math.max(0, data.earned - data.used);
  const onDraw = () =>
    draw.mutate(data, {
      onSuccess: (d) => toast.success(t('likes.won', { prize: prize(d.prizeMinor) })),
      onError: (err) => toast.fail(errorMessage(err)),
    });
  return (
    <section className={ui.card} data-testid="draw-card">
      <div className={ui.row}>
        <span className={ui.label}>{t('likes.drawsLeft')}</span>
        <span className={ui.strong} data-testid="draws-left">
          {left}
        </span>
      </div>
      <p className={ui.muted}>
        {t('likes.howTo', { likes: data.likesPerDraw, max: data.drawsPerDay, streak: data.streakDaysForDraw })}
      </p>
      <p className={ui.muted} data-testid="likes-today">
        {t('likes.progress', { likes: data.likesToday, earned: data.earned })}
      </p>
      <Button block color="primary" loading={draw.isPending} data-testid="draw" onClick={onDraw}>
        {t('likes.draw')}
      </Button>
      {data.draws.map((d) => (
        <div key={d.n} className={ui.row} data-testid="draw-result">
          <span>{t('likes.drawN', { n: d.n })}</span>
          <span>{prize(d.prizeMinor)}</span>
        </div>
      ))}
    </section>
  );
}

function Posts({ data }: { data: LikesStatus }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const like = useLikeMutation();
  if (data.posts.length === 0) return <EmptyState />;
  return (
    <List header={t('likes.posts')}>
      {data.posts.map((p) => (
        <List.Item
          key={p.id}
          data-testid="post"
          extra={
            <Button
              size="small"
              fill="none"
              aria-pressed={p.liked}
              aria-label={t(p.liked ? 'likes.liked' : 'likes.like')}
              data-testid="like"
              disabled={p.liked}
              onClick={() => like.mutate(p.id, { onError: (err) => toast.fail(errorMessage(err)) })}
            >
              {p.liked ? <HeartFill color="var(--adm-color-danger)" /> : <HeartOutline />}
            </Button>
          }
        >
          {p.title}
        </List.Item>
      ))}
    </List>
  );
}

/** /likes: like today's posts to earn draws; every draw is provably fair and verifiable from its own inputs. */
export default function LikesScreen() {
  const { t, i18n } = useTranslation(NAMESPACE);
  const likes = useLikes(isLanguage(i18n.language) ? i18n.language : 'zh-CN');
  let body = null;
  if (likes.isError) body = <ErrorState onRetry={() => void likes.refetch()} />;
  else if (!likes.data) body = <LoadingState />;
  else
    body = (
      <>
        <DrawCard data={likes.data} />
        <FairnessCard fairness={likes.data.fairness} prizes={likes.data.prizes} />
        <Posts data={likes.data} />
        {likes.data.pastDays.length > 0 ? (
          <section className={ui.card} data-testid="past-days">
            <span className={ui.label}>{t('likes.pastDays')}</span>
            {likes.data.pastDays.map((day) => (
              <VerifyDay key={day} day={day} prizes={likes.data.prizes} pastDays={likes.data.pastDays} />
            ))}
          </section>
        ) : null}
      </>
    );
  return (
    <Page title={t('likes.title')}>
      <div data-testid="likes-screen">{body}</div>
    </Page>
  );
}
